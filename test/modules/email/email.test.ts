import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { withTx } from '../../../src/kit/db.ts'
import { queueEmail } from '../../../src/modules/email/service.ts'
import {
  accessEmail,
  deliveryEmail,
  saleSummaryEmail,
} from '../../../src/modules/email/templates.ts'
import { engine, eventually, startTestService, type TestService } from '../../setup/service.ts'
import { startSmtpSink } from '../../setup/smtp-sink.ts'

describe('templates', () => {
  it('are pt-BR, format money as R$ and escape names in HTML', () => {
    const mail = deliveryEmail({
      buyerName: '<script>alert(1)</script>',
      productName: 'Curso & Cia',
      amountCents: 123456,
      orderId: 'o1',
      deliveryUrl: 'https://example.com/aula',
      membersUrl: 'https://vitrine.example/members',
    })
    expect(mail.subject).toBe('Pagamento confirmado: Curso & Cia')
    expect(mail.text).toContain('R$ 1.234,56')
    expect(mail.html).toContain('R$ 1.234,56')
    expect(mail.html).not.toContain('<script>')
    expect(mail.html).toContain('&lt;script&gt;')
    expect(mail.html).toContain('Curso &amp; Cia')
    const access = accessEmail({
      buyerName: 'Ana',
      productName: 'X',
      loginUrl: 'https://v/members/login?token=t',
    })
    expect(access.subject).toMatch(/área de membros/)
    expect(access.text).toContain('https://v/members/login?token=t')
  })

  it('a sale summary names ten products, counts the rest, and escapes names in HTML', () => {
    const products = Array.from({ length: 12 }, (_, i) => ({
      name: i === 0 ? 'Curso <b>&</b> Cia' : `Produto ${i}`,
      sales: 12 - i,
      amountCents: (12 - i) * 1000,
    }))
    const mail = saleSummaryEmail({ ownerName: 'Ana', products, ordersUrl: 'https://v/pedidos' })
    // 12 + 11 + … + 1 sales, R$ 10,00 each.
    expect(mail.subject).toBe('Mais 78 vendas aprovadas — R$ 780,00')
    expect(mail.text).toContain('- Curso <b>&</b> Cia: 12 vendas, R$ 120,00')
    expect(mail.text).toContain('- Produto 9: 3 vendas, R$ 30,00')
    expect(mail.text).not.toContain('Produto 10:')
    expect(mail.text).toContain('- e mais 2 produtos')
    expect(mail.html).toContain('Curso &lt;b&gt;&amp;&lt;/b&gt; Cia: 12 vendas')
    const one = saleSummaryEmail({
      ownerName: '',
      products: [{ name: 'E-book', sales: 1, amountCents: 3990 }],
      ordersUrl: 'https://v/pedidos',
    })
    expect(one.subject).toBe('Mais 1 venda aprovada — R$ 39,90')
    expect(one.text).toContain('Olá!')
    expect(one.text).toContain('- E-book: 1 venda, R$ 39,90')
  })
})

describe(`mail outbox and dev mailbox (${engine})`, () => {
  let svc: TestService
  beforeAll(async () => {
    svc = await startTestService()
  })
  afterAll(() => svc?.stop())

  const mail = (to: string, subject: string, dedupeKey?: string) => ({
    to,
    subject,
    text: 'corpo',
    html: '<p>corpo</p>',
    ...(dedupeKey ? { dedupeKey } : {}),
  })

  it('a queued mail shows in the dev mailbox, sent; a dedupe key queues once', async () => {
    await withTx(svc.deps.db, async (tx) => {
      await queueEmail(tx, svc.deps, mail('Ana@Example.com', 'Olá', 'k1'))
      await queueEmail(tx, svc.deps, mail('ana@example.com', 'Olá de novo', 'k1'))
    })
    const list = await eventually(async () => {
      const res = await svc.api('GET', '/api/dev/emails?to=ana@example.com')
      return res.body.data[0]?.status === 'sent' ? res.body.data : null
    })
    expect(list).toHaveLength(1)
    expect(list[0]).toMatchObject({
      to: 'ana@example.com',
      subject: 'Olá',
      text: 'corpo',
      html: '<p>corpo</p>',
    })
    const page = await fetch(`${svc.url}/dev/mailbox?to=ana@example.com`)
    expect(page.headers.get('content-type')).toContain('text/html')
    expect(await page.text()).toContain('Olá')
  })

  it('a mail queued in a transaction that rolls back never exists', async () => {
    await expect(
      withTx(svc.deps.db, async (tx) => {
        await queueEmail(tx, svc.deps, mail('rollback@example.com', 'Nunca'))
        throw new Error('rollback')
      }),
    ).rejects.toThrow('rollback')
    const res = await svc.api('GET', '/api/dev/emails?to=rollback@example.com')
    expect(res.body.data).toEqual([])
  })
})

describe(`real SMTP (${engine})`, () => {
  /** SMTP_CONNECTIONS, below its default of 20: the pool keeps to the setting. */
  const CONNECTIONS = 10
  let failNext = 1
  let sink: Awaited<ReturnType<typeof startSmtpSink>>
  let received: string[]
  let svc: TestService
  beforeAll(async () => {
    sink = await startSmtpSink(() => (failNext-- > 0 ? 'refuse' : 'accept'))
    received = sink.received
    svc = await startTestService({
      SMTP_URL: sink.url,
      SMTP_CONNECTIONS: String(CONNECTIONS),
      EMAIL_RETRY_BASE_MS: '50',
    })
  })
  afterAll(async () => {
    await svc?.stop()
    await sink?.close()
  })

  it('sends multipart pt-BR mail, retrying after a refused attempt', async () => {
    await withTx(svc.deps.db, (tx) =>
      queueEmail(tx, svc.deps, {
        to: 'bia@example.com',
        ...deliveryEmail({
          buyerName: 'Bia',
          productName: 'Fotografia',
          amountCents: 9790,
          orderId: 'o-1',
          deliveryUrl: null,
          membersUrl: 'http://localhost/members',
        }),
      }),
    )
    await eventually(async () => received.length === 1)
    const raw = received[0]!
    expect(raw).toMatch(/^To: bia@example\.com/m)
    expect(raw).toMatch(/^Subject: .*Pagamento confirmado/m)
    expect(raw).toContain('multipart/alternative')
    expect(raw).toContain('text/plain')
    expect(raw).toContain('text/html')
    // The sink has the mail a moment before the worker records it as sent.
    const row = await eventually(async () => {
      const found = await svc.deps.db.selectFrom('emails').selectAll().executeTakeFirstOrThrow()
      return found.status === 'sent' ? found : null
    })
    expect(row.attempts).toBe(2)
    // The retry went out as the same message: its Message-ID is the outbox row's.
    expect(raw).toMatch(new RegExp(`^Message-ID: <${row.id}@`, 'm'))
    expect((await svc.api('GET', '/api/dev/emails')).status).toBe(404)
  })

  it('sends a pass of mails over the pool: SMTP_CONNECTIONS at most, not one per mail', async () => {
    const before = { connections: sink.connections(), received: received.length }
    await withTx(svc.deps.db, async (tx) => {
      for (let i = 0; i < 3 * CONNECTIONS; i++)
        await queueEmail(tx, svc.deps, {
          to: `lote-${i}@example.com`,
          ...accessEmail({ buyerName: 'Bia', productName: 'Fotografia', loginUrl: 'http://x/l' }),
        })
    })
    await eventually(async () => received.length === before.received + 3 * CONNECTIONS)
    expect(sink.connections() - before.connections).toBeLessThanOrEqual(CONNECTIONS)
  })
})
