// The buyer's own API (/api/me/*) over HTTP against the real service: purchases with their
// refund state, the refund request inside the guarantee period (CDC art. 49: at least 7 days),
// subscriptions and their cancel; another buyer's ids are 404s; a key is no buyer session.
import { randomBytes } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type Creator, followLoginLink, signupCreator } from '../../setup/actors.ts'
import { checkout, createProduct, pay } from '../../setup/purchase.ts'
import {
  engine,
  eventually,
  type Session,
  startTestService,
  type TestService,
} from '../../setup/service.ts'

let svc: TestService
let creator: Creator
let key: string
beforeAll(async () => {
  svc = await startTestService()
  creator = await signupCreator(svc.api)
  key = await creator.key(['write:products', 'read:orders'])
})
afterAll(() => svc?.stop())

/** A buyer who bought `productId` (paid) and came in through the payment e-mail's link. */
async function buyer(productId: string) {
  const email = `compradora-${randomBytes(4).toString('hex')}@example.com`
  const created = await checkout(svc.api, productId, { email })
  expect(created.status).toBe(201)
  expect((await pay(svc.api, created.body.charge_id)).body.callback_status).toBe(200)
  const mails = (await svc.api('GET', `/api/dev/emails?to=${email}`)).body.data as {
    subject: string
    text: string
  }[]
  const paid = mails.find((m) => m.subject.startsWith('Pagamento confirmado'))!
  const link = /(http\S+\/members\/login\?token=m1\.\S+)/.exec(paid.text)![1]!
  const session: Session = await followLoginLink(svc.url, link)
  return { email, session, orderId: created.body.order_id as string, link }
}

describe(`buyer API (${engine})`, () => {
  it('lists the purchase; a refund inside the period is accepted once, then shown', async () => {
    const product = await createProduct(svc.api, key, { guarantee_days: 0 })
    const b = await buyer(product.id)
    const list = await svc.api('GET', '/api/me/purchases', { session: b.session })
    expect(list.status).toBe(200)
    expect(list.body.data).toHaveLength(1)
    const [p] = list.body.data
    expect(p).toMatchObject({
      order_id: b.orderId,
      product_name: 'Curso de Teste',
      amount: 97.9,
      status: 'paid',
      refund: null,
      can_refund: true,
    })
    // guarantee_days 0 still gives the buyer the 7 days of CDC art. 49.
    const days = (Date.parse(p.refundable_until) - Date.parse(p.paid_at)) / 86_400_000
    expect(days).toBe(7)

    const empty = await svc.api('POST', `/api/me/orders/${b.orderId}/refund`, {
      session: b.session,
      body: { reason: '   ' },
    })
    expect(empty.status).toBe(400)
    const asked = await svc.api('POST', `/api/me/orders/${b.orderId}/refund`, {
      session: b.session,
      body: { reason: 'Não era o que eu esperava' },
    })
    expect(asked.status).toBe(201)
    expect(asked.body.data).toMatchObject({ order_id: b.orderId, status: 'pending' })
    const again = await svc.api('POST', `/api/me/orders/${b.orderId}/refund`, {
      session: b.session,
      body: { reason: 'de novo' },
    })
    expect(again.status).toBe(409)
    expect(again.body.error).toBe('Você já pediu o reembolso deste pedido.')

    // The refund worker carries it out like a creator's refund: the order ends refunded.
    const after = await eventually(async () => {
      const [row] = (await svc.api('GET', '/api/me/purchases', { session: b.session })).body.data
      return row.status === 'refunded' && row
    })
    expect(after.refund).toMatchObject({ id: asked.body.data.id, status: 'completed' })
    expect(after.can_refund).toBe(false)
    // The creator sees the same refund through their own API: one flow for both.
    const creatorView = await svc.api('GET', `/api/v1/refunds?order_id=${b.orderId}`, {
      key: await creator.key(['read:refunds']),
    })
    expect(creatorView.body.data.map((r: { id: string }) => r.id)).toEqual([asked.body.data.id])
  })

  it("another buyer's order and subscription are 404s; a key is not a buyer session", async () => {
    const product = await createProduct(svc.api, key)
    const recurring = await createProduct(svc.api, key, {
      billing: 'recurring',
      plans: [{ name: 'Mensal', price: 30, interval: 'month' }],
    })
    const first = await buyer(recurring.id)
    const second = await buyer(product.id)
    const [sub] = (await svc.api('GET', '/api/me/subscriptions', { session: first.session })).body
      .data
    expect(sub).toMatchObject({ status: 'active', product_name: 'Curso de Teste', amount: 30 })

    const refund = await svc.api('POST', `/api/me/orders/${first.orderId}/refund`, {
      session: second.session,
      body: { reason: 'não é meu' },
    })
    expect(refund.status).toBe(404)
    const cancel = await svc.api('POST', `/api/me/subscriptions/${sub.id}/cancel`, {
      session: second.session,
    })
    expect(cancel.status).toBe(404)
    expect(
      (await svc.api('GET', '/api/me/subscriptions', { session: second.session })).body.data,
    ).toEqual([])
    const withKey = await svc.api('GET', '/api/me/purchases', { key })
    expect(withKey.status).toBe(401)

    const own = await svc.api('POST', `/api/me/subscriptions/${sub.id}/cancel`, {
      session: first.session,
    })
    expect(own.status).toBe(200)
    expect(own.body.data).toMatchObject({
      id: sub.id,
      status: 'active',
      cancel_at_period_end: true,
    })
  })

  it('the payment e-mail link is one-time: a second use is "Link expirado"', async () => {
    const product = await createProduct(svc.api, key)
    const b = await buyer(product.id)
    const url = new URL(b.link.replace(/^http:\/\/localhost:\d+/, svc.url))
    expect((await fetch(url)).status).toBe(410)
    const again = await fetch(`${svc.url}/members/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: url.searchParams,
      redirect: 'manual',
    })
    expect(again.status).toBe(410)
    // A token whose signature does not hold is refused the same way.
    const forged = b.link.replace(/.$/, (c) => (c === '0' ? '1' : '0'))
    expect((await fetch(forged.replace(/^http:\/\/localhost:\d+/, svc.url))).status).toBe(410)
  })

  // Last: moving the sandbox clock moves it for the whole service.
  it('outside the guarantee period the refund is refused with a 400 in pt-BR', async () => {
    const product = await createProduct(svc.api, key, { guarantee_days: 10 })
    const b = await buyer(product.id)
    await svc.api('POST', '/sandbox/clock/advance', { body: { seconds: 9 * 86_400 } })
    const inside = (await svc.api('GET', '/api/me/purchases', { session: b.session })).body.data[0]
    expect(inside.can_refund).toBe(true)
    await svc.api('POST', '/sandbox/clock/advance', { body: { seconds: 2 * 86_400 } })
    const outside = (await svc.api('GET', '/api/me/purchases', { session: b.session })).body.data[0]
    expect(outside.can_refund).toBe(false)
    const refused = await svc.api('POST', `/api/me/orders/${b.orderId}/refund`, {
      session: b.session,
      body: { reason: 'tarde demais' },
    })
    expect(refused.status).toBe(400)
    expect(refused.body.error).toMatch(/prazo de garantia/)
  })
})
