// Sale notices coalesced (issue 13, launch day): a sale after a quiet spell is told to the owner
// at once; the other sales of the minute it opens come in one summary once it has ended and a
// margin more. Every sale is told exactly once, racing sales included, over a real SMTP server.
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { withTx } from '../../../src/kit/db.ts'
import { SUMMARY_MARGIN_MS } from '../../../src/modules/sale-notices/jobs.ts'
import { saleNoticesRepo } from '../../../src/modules/sale-notices/repo.ts'
import { WINDOW_MS } from '../../../src/modules/sale-notices/service.ts'
import { type Creator, signupCreator } from '../../setup/actors.ts'
import { checkout, createProduct, pay } from '../../setup/purchase.ts'
import { engine, startTestService, type TestService } from '../../setup/service.ts'
import { startSmtpSink } from '../../setup/smtp-sink.ts'

let svc: TestService
let sink: Awaited<ReturnType<typeof startSmtpSink>>
beforeAll(async () => {
  sink = await startSmtpSink()
  svc = await startTestService({ SMTP_URL: sink.url })
})
afterAll(async () => {
  await svc?.stop()
  await sink?.close()
})

/** The mails queued to `to`, oldest first. */
async function mailsTo(to: string) {
  const rows = await svc.deps.db
    .selectFrom('emails')
    .select(['subject', 'text_body', 'html_body'])
    .where('to_address', '=', to.toLowerCase())
    .orderBy('created_at')
    .orderBy('id')
    .execute()
  return rows
}

async function buy(productId: string) {
  const created = await checkout(svc.api, productId)
  expect(created.status).toBe(201)
  expect((await pay(svc.api, created.body.charge_id)).body.callback_status).toBe(200)
  return created.body.order_id as string
}

const subjectsTo = async (to: string) => (await mailsTo(to)).map((m) => m.subject)
const summarize = () => svc.workers!.runOnce('sale-notices.summarize')
const advance = (ms: number) => svc.deps.clock.advance(ms)
/** Past the window and its margin, then a summary pass. */
async function summarizeAfterTheWindow() {
  await advance(WINDOW_MS + SUMMARY_MARGIN_MS)
  await summarize()
}

/** A new creator (`owner`) selling one product (`productName`, R$ 97,90); and its key. */
async function shop(owner: string, productName = 'Curso de Teste') {
  const creator = await signupCreator(svc.api, owner)
  const key = await creator.key(['write:products'])
  const product = await createProduct(svc.api, key, { name: productName })
  return { creator, key, product }
}

describe(`sale notices coalesced (${engine})`, () => {
  let creator: Creator
  let course: { id: string }
  let ebook: { id: string }
  beforeAll(async () => {
    const opened = await shop('Carla Criadora', 'Curso de Fotografia')
    creator = opened.creator
    course = opened.product
    ebook = await createProduct(svc.api, opened.key, {
      name: 'E-book de Receitas',
      plans: [{ name: 'Único', price: 39.9 }],
    })
  })

  it('the first sale at once; the rest of its minute in one summary after it; then again at once', async () => {
    await buy(course.id)
    await buy(course.id)
    await buy(ebook.id)
    expect(await subjectsTo(creator.email)).toEqual([
      'Venda aprovada: Curso de Fotografia — R$ 97,90',
    ])

    // The window has ended, but not its margin: no summary yet. A sale now opens the next.
    await advance(WINDOW_MS)
    await summarize()
    await buy(ebook.id)
    expect(await subjectsTo(creator.email)).toEqual([
      'Venda aprovada: Curso de Fotografia — R$ 97,90',
      'Venda aprovada: E-book de Receitas — R$ 39,90',
    ])

    await advance(SUMMARY_MARGIN_MS)
    await summarize()
    const mails = await mailsTo(creator.email)
    expect(mails.map((m) => m.subject)).toEqual([
      'Venda aprovada: Curso de Fotografia — R$ 97,90',
      'Venda aprovada: E-book de Receitas — R$ 39,90',
      'Mais 2 vendas aprovadas — R$ 137,80',
    ])
    const summary = mails[2]!
    for (const body of [summary.text_body, summary.html_body]) {
      expect(body).toContain('Curso de Fotografia: 1 venda, R$ 97,90')
      expect(body).toContain('E-book de Receitas: 1 venda, R$ 39,90')
      expect(body).toContain(`${svc.deps.config.baseUrl}/dashboard/pedidos`)
    }
    // The best-selling product first.
    expect(summary.text_body.indexOf('Curso')).toBeLessThan(summary.text_body.indexOf('E-book'))
    expect(summary.text_body).toContain('Olá, Carla Criadora!')

    // The second window had no other sale: no summary of it, and none twice.
    await summarizeAfterTheWindow()
    await summarize()
    expect(await mailsTo(creator.email)).toHaveLength(3)

    // The summary goes out over SMTP like any mail.
    await svc.workers!.runOnce('email.send')
    const sent = sink.received.filter((raw) =>
      raw.toLowerCase().includes(`to: ${creator.email.toLowerCase()}`),
    )
    expect(sent).toHaveLength(3)
  })

  it('sales racing at a quiet moment: one is told at once, the others in the summary, none twice', async () => {
    const { creator: racer, product } = await shop('Rita Lançadora', 'Mentoria')
    const sales = 12
    await Promise.all(Array.from({ length: sales }, () => buy(product.id)))
    expect(await subjectsTo(racer.email)).toEqual(['Venda aprovada: Mentoria — R$ 97,90'])
    await summarizeAfterTheWindow()
    expect(await subjectsTo(racer.email)).toEqual([
      'Venda aprovada: Mentoria — R$ 97,90',
      `Mais ${sales - 1} vendas aprovadas — R$ 1.076,90`,
    ])
  })

  // PGlite has one connection: no sale there ever meets another's lock.
  if (engine === 'postgres')
    it('a sale that finds another opening the window: does not wait, is told in its summary', async () => {
      const { creator: owner, product } = await shop('Olga Concorrida', 'Workshop')
      const first = await buy(product.id)
      await summarizeAfterTheWindow()
      const db = svc.deps.db
      // A racing sale in flight holds the account's row, about to open the next window.
      await withTx(db, async (tx) => {
        await sql`SELECT 1 FROM accounts WHERE id = ${owner.accountId} FOR NO KEY UPDATE`.execute(
          tx,
        )
        // This sale's snapshot saw no window: it skips the held row instead of waiting on it.
        await buy(product.id)
        const paidAt = svc.deps.clock.now()
        const opened = await saleNoticesRepo.open(tx, {
          id: crypto.randomUUID(),
          accountId: owner.accountId,
          orderId: first,
          paidAt,
          endsAt: new Date(paidAt.getTime() + WINDOW_MS),
        })
        expect(opened).not.toBeNull()
      })
      expect(await subjectsTo(owner.email)).toEqual(['Venda aprovada: Workshop — R$ 97,90'])
      // The racer's window starts where the last ended, before the skipped sale was paid.
      await summarizeAfterTheWindow()
      expect(await subjectsTo(owner.email)).toEqual([
        'Venda aprovada: Workshop — R$ 97,90',
        'Mais 1 venda aprovada — R$ 97,90',
      ])
    })

  it('turned off during a window: no summary of it', async () => {
    const { creator: quiet, product } = await shop('Quitéria Discreta', 'Oficina')
    await buy(product.id)
    await buy(product.id)
    const off = await svc.api('PATCH', `/api/accounts/${quiet.accountId}/settings`, {
      session: quiet.session,
      body: { sale_notifications: false },
    })
    expect(off.status).toBe(200)
    await summarizeAfterTheWindow()
    expect(await subjectsTo(quiet.email)).toEqual(['Venda aprovada: Oficina — R$ 97,90'])
  })
})
