// Sale notifications (issue 12 item 3): the account's owner is e-mailed for every paid order,
// renewals included, over a real SMTP server; an account can turn it off. And the settings
// routes that do so.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { WINDOW_MS } from '../../../src/modules/sale-notices/service.ts'
import { runDueRenewals } from '../../../src/modules/subscriptions/renewals.ts'
import { type Creator, signupCreator } from '../../setup/actors.ts'
import { checkout, createProduct, pay } from '../../setup/purchase.ts'
import { engine, eventually, startTestService, type TestService } from '../../setup/service.ts'
import { startSmtpSink } from '../../setup/smtp-sink.ts'
import { openShop } from '../subscriptions/fixtures.ts'

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

const mailsTo = (to: string) =>
  svc.deps.db
    .selectFrom('emails')
    .selectAll()
    .where('to_address', '=', to)
    .orderBy('created_at')
    .execute()

/** Buys the product with PIX and pays it; the order id and the buyer's address. */
async function buy(productId: string, name = 'Beatriz Compradora') {
  const email = `comprador-${Math.random().toString(36).slice(2, 10)}@example.com`
  const created = await checkout(svc.api, productId, { name, email })
  expect(created.status).toBe(201)
  expect((await pay(svc.api, created.body.charge_id)).body.callback_status).toBe(200)
  return { orderId: created.body.order_id as string, email }
}

/** Sends what is queued (the SMTP sink is real) and returns the raw messages to `to`. */
async function sentTo(to: string) {
  await svc.workers!.runOnce('email.send')
  return sink.received.filter((raw) => raw.toLowerCase().includes(`to: ${to.toLowerCase()}`))
}

describe(`sale notifications (${engine})`, () => {
  let creator: Creator
  let key: string
  let product: { id: string; name: string }
  beforeAll(async () => {
    creator = await signupCreator(svc.api, 'Carla Criadora')
    key = await creator.key(['write:products'])
    product = await createProduct(svc.api, key, { name: 'Curso de Fotografia' })
  })

  it('on by default: the owner gets "Venda aprovada" with the buyer, the method and the order link', async () => {
    const settings = await svc.api('GET', `/api/accounts/${creator.accountId}/settings`, {
      session: creator.session,
    })
    expect(settings).toMatchObject({ status: 200, body: { data: { sale_notifications: true } } })

    const { orderId, email } = await buy(product.id, 'Beatriz Compradora')
    const [mail, ...more] = await mailsTo(creator.email)
    expect(more).toHaveLength(0)
    expect(mail!.subject).toBe('Venda aprovada: Curso de Fotografia — R$ 97,90')
    const link = `${svc.deps.config.baseUrl}/dashboard/pedidos/${orderId}`
    for (const body of [mail!.text_body, mail!.html_body]) {
      expect(body).toContain('Beatriz Compradora')
      expect(body).toContain(email)
      expect(body).toContain('PIX')
      expect(body).toContain(link)
    }
    expect(mail!.text_body).toContain('Olá, Carla Criadora!')
    // The buyer's delivery mail is there as before, and both go out over SMTP.
    expect(await mailsTo(email)).toHaveLength(2) // access + delivery
    expect(await sentTo(creator.email)).toHaveLength(1)
    expect(await sentTo(email)).toHaveLength(2)
  })

  it('a repeated callback does not notify twice', async () => {
    const other = await signupCreator(svc.api)
    const otherKey = await other.key(['write:products'])
    const otherProduct = await createProduct(svc.api, otherKey)
    const created = await checkout(svc.api, otherProduct.id)
    await pay(svc.api, created.body.charge_id)
    await pay(svc.api, created.body.charge_id)
    expect(await mailsTo(other.email)).toHaveLength(1)
  })

  it('turned off (session, or a key with write:profile): no mail for the next sales; on again, mails again', async () => {
    const off = await svc.api('PATCH', `/api/accounts/${creator.accountId}/settings`, {
      session: creator.session,
      body: { sale_notifications: false },
    })
    expect(off).toMatchObject({ status: 200, body: { data: { sale_notifications: false } } })
    const before = (await mailsTo(creator.email)).length

    const { email } = await buy(product.id)
    expect(await mailsTo(creator.email)).toHaveLength(before)
    // The buyer's mails still go: only the owner's notice is off.
    expect(await mailsTo(email)).toHaveLength(2)
    await svc.workers!.runOnce('email.send')
    expect(await sentTo(creator.email)).toHaveLength(before)

    const profileKey = await creator.key(['write:profile'])
    const read = await svc.api('GET', `/api/accounts/${creator.accountId}/settings`, {
      key: profileKey,
    })
    expect(read.body).toEqual({ data: { sale_notifications: false } })
    // Leaving the field out changes nothing.
    const same = await svc.api('PATCH', `/api/accounts/${creator.accountId}/settings`, {
      key: profileKey,
      body: {},
    })
    expect(same.body).toEqual({ data: { sale_notifications: false } })
    const on = await svc.api('PATCH', `/api/accounts/${creator.accountId}/settings`, {
      key: profileKey,
      body: { sale_notifications: true },
    })
    expect(on.body).toEqual({ data: { sale_notifications: true } })
    // After a quiet minute, so the sale is told at once rather than in a summary (sale-notices/).
    await svc.deps.clock.advance(WINDOW_MS)
    await buy(product.id)
    expect(await mailsTo(creator.email)).toHaveLength(before + 1)
  })

  it('another account, a key without write:profile, a bad value: refused', async () => {
    const other = await signupCreator(svc.api)
    const path = `/api/accounts/${other.accountId}/settings`
    expect((await svc.api('GET', path, { session: creator.session })).status).toBe(404)
    expect(
      (
        await svc.api('PATCH', path, {
          session: creator.session,
          body: { sale_notifications: false },
        })
      ).status,
    ).toBe(404)
    const readKey = await other.key(['read:orders'])
    expect((await svc.api('GET', path, { key: readKey })).status).toBe(403)
    const bad = await svc.api('PATCH', path, {
      session: other.session,
      body: { sale_notifications: 'não' },
    })
    expect(bad.status).toBe(400)
    // Unchanged by any of it.
    expect((await svc.api('GET', path, { session: other.session })).body).toEqual({
      data: { sale_notifications: true },
    })
  })

  it('a paid renewal notifies too, as a renewal', async () => {
    const shop = await openShop(svc, { name: 'Clube do Café', price: 39.9 })
    const { sub } = await shop.subscribe({
      email: `assinante-${Math.random().toString(36).slice(2, 8)}@example.com`,
      payment_method: 'card',
      card_token: 'tok_approved',
    })
    const diff = Date.parse(sub.current_period_end) + 60_000 - svc.deps.clock.now().getTime()
    await svc.deps.clock.advance(diff)
    await runDueRenewals(svc.deps)
    const mails = await eventually(async () => {
      const rows = await mailsTo(shop.creator.email)
      return rows.length === 2 ? rows : null
    })
    expect(mails.map((m) => m.subject)).toEqual([
      'Venda aprovada: Clube do Café — R$ 39,90',
      'Venda aprovada: Clube do Café — R$ 39,90',
    ])
    expect(mails[0]!.text_body).toContain('Você fez uma venda')
    expect(mails[0]!.text_body).toContain('Cartão de crédito')
    expect(mails[1]!.text_body).toContain('Uma assinatura foi renovada')
  })
})
