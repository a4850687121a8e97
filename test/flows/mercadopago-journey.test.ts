// The purchase journeys through the Mercado Pago adapter (PAYMENT_GATEWAY=mercadopago), over
// real HTTP both ways: the service calls the fake's API, the fake notifies the service's
// callback route, signed. Both databases (TEST_DATABASE_URL picks PostgreSQL).
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { FIRST_LOOK_MS } from '../../src/modules/payments/charge-lookups.ts'
import { CHECK_GRACE_MS } from '../../src/modules/payments/checks.ts'
import { type FakeMercadoPago, startFakeMercadoPago } from '../fakes/mercadopago.ts'
import { signupCreator } from '../setup/actors.ts'
import { mercadoPagoEnv } from '../setup/gateway-env.ts'
import { checkout, createProduct } from '../setup/purchase.ts'
import { engine, eventually, startTestService, type TestService } from '../setup/service.ts'

const CPF = '12345678909'
/** PIX_EXPIRES_AFTER in these tests. */
const PIX_LIFE_MS = 30 * 60_000
const MASTER = '5031433215406351'

let mp: FakeMercadoPago
let svc: TestService
let key: string
let oneTimeId: string
/** A one-time product that takes card (12× at most, the seller pays interest) and boleto. */
let cardId: string

beforeAll(async () => {
  // The fake signs with the service's clock, which tests move forward (the signature's `ts`
  // must stay within 5 minutes of it).
  mp = await startFakeMercadoPago({
    retryDelaysMs: [50, 50, 50],
    now: () => (svc ? svc.deps.clock.now() : new Date()),
  })
  svc = await startTestService({
    ...mercadoPagoEnv(mp),
    PIX_EXPIRES_AFTER: '30m',
  })
  const creator = await signupCreator(svc.api)
  key = await creator.key(['write:products', 'read:orders', 'refunds:create', 'read:refunds'])
  cardId = (
    await createProduct(svc.api, key, {
      plans: [{ name: 'Único', price: 150 }],
      payment_methods: ['pix', 'card', 'boleto'],
      max_installments: 12,
      installment_interest: 'seller',
    })
  ).id
  oneTimeId = (await createProduct(svc.api, key, { plans: [{ name: 'Único', price: 97.9 }] })).id
})
afterAll(async () => {
  // Deliveries first: a notification arriving while the service closes kept it from closing.
  await mp?.settled()
  await mp?.close()
  await svc?.stop()
})

const orderOf = async (orderId: string) =>
  (await svc.api('GET', `/api/v1/orders/${orderId}`, { key })).body.data
const statusBecomes = (orderId: string, status: string) =>
  eventually(async () => (await orderOf(orderId)).status === status)
const paidEvents = async (orderId: string) =>
  (await svc.deps.db.selectFrom('events').select(['type', 'data']).execute()).filter(
    (e) => e.type === 'order.paid' && (e.data as { order_id?: string }).order_id === orderId,
  ).length

/** What MercadoPago.js gives the checkout page, joined as the page sends it. */
async function browserToken(holder = 'APRO') {
  const res = await fetch(`${mp.url}/v1/card_tokens?public_key=${mp.publicKey}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      card_number: MASTER,
      security_code: '123',
      expiration_month: 11,
      expiration_year: new Date().getUTCFullYear() + 3,
      cardholder: { name: holder, identification: { type: 'CPF', number: CPF } },
    }),
  })
  const { id } = (await res.json()) as { id: string }
  return `${id}:master:24`
}

/** A PIX order, with its notification of creation already delivered. */
async function pixOrder() {
  const res = await checkout(svc.api, oneTimeId)
  expect(res.status).toBe(201)
  await mp.settled()
  return { orderId: res.body.order_id as string, paymentId: res.body.charge_id as string }
}

describe(`Mercado Pago journeys (${engine})`, () => {
  it('PIX: the code is the payment at Mercado Pago; its signed notification pays the order', async () => {
    const res = await checkout(svc.api, oneTimeId)
    expect(res.status).toBe(201)
    expect(res.body).toMatchObject({ status: 'pending', payment_method: 'pix', amount: 97.9 })
    const payment = mp.payment(res.body.charge_id)
    expect(payment).toMatchObject({
      external_reference: res.body.order_id,
      transaction_amount: 97.9,
      payment_method_id: 'pix',
    })
    expect(res.body.pix.copy_paste).toBe(payment.point_of_interaction.transaction_data!.qr_code)
    expect(res.body.pix.qr_code).toMatch(/^data:image\/png;base64,/)
    await mp.settled()

    mp.approve(res.body.charge_id)
    await mp.settled()
    await statusBecomes(res.body.order_id, 'paid')
    const delivered = mp.deliveries.filter((d) => String(d.paymentId) === res.body.charge_id)
    expect(delivered.map((d) => [d.action, d.status])).toEqual([
      ['payment.created', 200],
      ['payment.updated', 200],
    ])
    expect(await paidEvents(res.body.order_id)).toBe(1)
  })

  it('card approved with installments, by the token MercadoPago.js made in the browser', async () => {
    const res = await checkout(svc.api, cardId, {
      payment_method: 'card',
      card_token: await browserToken('APRO'),
      installments: 3,
    })
    expect(res.status).toBe(201)
    expect(res.body).toMatchObject({
      status: 'paid',
      card: { status: 'approved', last4: '6351' },
    })
    expect(mp.payment(res.body.charge_id)).toMatchObject({
      installments: 3,
      status: 'approved',
      external_reference: res.body.order_id,
    })
    expect((await orderOf(res.body.order_id)).status).toBe('paid')
  })

  it('card in 3x with the buyer paying the interest: Mercado Pago charges what the buyer pays', async () => {
    const product = await createProduct(svc.api, key, {
      plans: [{ name: 'Único', price: 100 }],
      payment_methods: ['card'],
      max_installments: 3,
      installment_interest: 'buyer',
    })
    const res = await checkout(svc.api, product.id, {
      payment_method: 'card',
      card_token: await browserToken('APRO'),
      installments: 3,
    })
    expect(res.status).toBe(201)
    // 100.00 at 2.99 % a month in 3x: 3 × 35.35 = 106.05 (kit/money's Price table).
    expect(res.body).toMatchObject({ status: 'paid', amount: 106.05, installments: 3 })
    expect(mp.payment(res.body.charge_id)).toMatchObject({
      transaction_amount: 106.05,
      installments: 3,
      status: 'approved',
    })
  })

  it('card on a recurring product: Mercado Pago keeps no card for renewals, so it is refused before any charge; the page offers PIX and boleto', async () => {
    const recurring = await createProduct(svc.api, key, {
      billing: 'recurring',
      plans: [{ name: 'Mensal', price: 29.9, interval: 'month' }],
    })
    const before = mp.payments().length
    const res = await checkout(svc.api, recurring.id, {
      payment_method: 'card',
      card_token: await browserToken('APRO'),
    })
    expect(res.status).toBe(400)
    expect(res.body.error).toMatch(/Assinaturas não podem ser pagas com cartão/)
    expect(mp.payments().length).toBe(before)
    const page = await (await fetch(`${svc.url}/checkout/${recurring.slug}`)).text()
    expect(page).toContain('value="pix"')
    expect(page).toContain('value="boleto"')
    expect(page).not.toContain('value="card"')
  })

  it('card declined: 402, the order failed', async () => {
    const email = `recusado-${Date.now()}@example.com`
    const res = await checkout(svc.api, cardId, {
      payment_method: 'card',
      card_token: await browserToken('FUND'),
      email,
    })
    expect(res.status).toBe(402)
    expect(res.body.error).toBe('Cartão recusado')
    expect(JSON.stringify(res.body.details)).toContain('Saldo ou limite insuficiente no cartão.')
    const orders = await svc.api('GET', `/api/v1/orders?buyer_email=${email}`, { key })
    expect(orders.body.data.map((o: { status: string }) => o.status)).toEqual(['failed'])
  })

  it('card under review: pending, then its notification pays the order', async () => {
    const res = await checkout(svc.api, cardId, {
      payment_method: 'card',
      card_token: await browserToken('CONT'),
    })
    expect(res.status).toBe(201)
    expect(res.body).toMatchObject({ status: 'pending', card: null })
    await mp.settled()
    mp.approve(res.body.charge_id)
    await mp.settled()
    await statusBecomes(res.body.order_id, 'paid')
  })

  it('card under review, then refused: its notification fails the order at once', async () => {
    const res = await checkout(svc.api, cardId, {
      payment_method: 'card',
      card_token: await browserToken('CONT'),
    })
    expect(res.body).toMatchObject({ status: 'pending', card: null })
    await mp.settled()
    mp.reject(res.body.charge_id)
    await mp.settled()
    await statusBecomes(res.body.order_id, 'failed')
  })

  it('boleto: without the payer address Mercado Pago requires, a clear 400 and nothing charged', async () => {
    const before = mp.payments().length
    const res = await checkout(svc.api, cardId, { payment_method: 'boleto' })
    expect(res.status).toBe(400)
    expect(res.body.error).toMatch(/endereço completo/)
    expect(mp.payments().length).toBe(before)
  })

  it('a refund asked through the API is made at Mercado Pago once, with our refund id as key', async () => {
    const res = await checkout(svc.api, cardId, {
      payment_method: 'card',
      card_token: await browserToken('APRO'),
    })
    expect(res.status).toBe(201)
    const asked = await svc.api('POST', `/api/v1/orders/${res.body.order_id}/refund`, {
      key,
      body: { reason: 'Pediu desistência' },
    })
    expect(asked.status).toBe(201)
    const refundId: string = asked.body.data.id
    await eventually(
      async () =>
        (await svc.api('GET', `/api/v1/refunds/${refundId}`, { key })).body.data.status ===
        'completed',
    )
    await statusBecomes(res.body.order_id, 'refunded')
    const payment = mp.payment(res.body.charge_id)
    expect(payment).toMatchObject({ status: 'refunded', transaction_amount_refunded: 150 })
    expect(payment.refunds).toHaveLength(1)
    const posts = mp.requests.filter(
      (r) => r.method === 'POST' && r.path === `/v1/payments/${res.body.charge_id}/refunds`,
    )
    expect(new Set(posts.map((r) => r.headers['x-idempotency-key']))).toEqual(new Set([refundId]))
  })

  it('a chargeback notification reverses the paid order', async () => {
    const { orderId, paymentId } = await pixOrder()
    mp.approve(paymentId)
    await mp.settled()
    await statusBecomes(orderId, 'paid')
    mp.chargeback(paymentId)
    await mp.settled()
    await statusBecomes(orderId, 'chargeback')
  })

  it('forged, unsigned, tampered and stale notifications are refused (401) and change nothing', async () => {
    const { orderId, paymentId } = await pixOrder()
    for (const how of ['wrong-secret', 'unsigned', 'tampered-id', 'stale'] as const) {
      mp.forge(paymentId, how)
    }
    await mp.settled()
    const forged = mp.deliveries.filter(
      (d) => d.kind === 'forged' && String(d.paymentId) === paymentId,
    )
    expect(forged.map((d) => d.status)).toEqual([401, 401, 401, 401])
    expect((await orderOf(orderId)).status).toBe('pending')
  })

  it('repeated and concurrent notifications make one paid transition', async () => {
    const twice = await pixOrder()
    const raced = await pixOrder()
    mp.setDelivery('twice')
    mp.approve(twice.paymentId)
    await mp.settled()
    mp.setDelivery('concurrently')
    mp.approve(raced.paymentId)
    await mp.settled()
    mp.setDelivery('once')
    mp.resend(raced.paymentId)
    await mp.settled()
    for (const { orderId } of [twice, raced]) {
      await statusBecomes(orderId, 'paid')
      expect(await paidEvents(orderId)).toBe(1)
    }
  })

  it('a notification whose read-back goes unanswered gets 503, and its retry pays the order', async () => {
    const { orderId, paymentId } = await pixOrder()
    mp.failNext(502, { method: 'GET', path: `/v1/payments/${paymentId}` })
    mp.approve(paymentId)
    await mp.settled()
    await statusBecomes(orderId, 'paid')
    const updates = mp.deliveries.filter(
      (d) => String(d.paymentId) === paymentId && d.action === 'payment.updated',
    )
    expect(updates.map((d) => d.status)).toEqual([503, 200])
  })

  it('a card create whose answer was lost: 502, then reconciliation finds the one payment and pays the order', async () => {
    const email = `perdida-${Date.now()}@example.com`
    mp.loseNextAnswer({ method: 'POST', path: '/v1/payments' })
    const res = await checkout(svc.api, cardId, {
      payment_method: 'card',
      card_token: await browserToken('APRO'),
      email,
    })
    expect(res.status).toBe(502)
    const orders = await svc.api('GET', `/api/v1/orders?buyer_email=${email}`, { key })
    const orderId: string = orders.body.data[0].id
    expect(orders.body.data[0].status).toBe('pending')
    await svc.deps.clock.advance(CHECK_GRACE_MS + 1_000)
    await svc.workers!.runOnce('payments.reconcile')
    await statusBecomes(orderId, 'paid')
    const made = mp.payments().filter((p) => p.external_reference === orderId)
    expect(made).toHaveLength(1)
    expect(await paidEvents(orderId)).toBe(1)
  })

  it('a lost notification: the look-up 5 minutes on reads the payment and pays the order', async () => {
    const { orderId, paymentId } = await pixOrder()
    mp.setDelivery('never')
    mp.approve(paymentId)
    mp.setDelivery('once')
    expect((await orderOf(orderId)).status).toBe('pending')
    await svc.deps.clock.advance(FIRST_LOOK_MS + 1_000)
    await svc.workers!.runOnce('payments.reconcile')
    await statusBecomes(orderId, 'paid')
    expect(await paidEvents(orderId)).toBe(1)
    // The notification Mercado Pago sends again later changes nothing more.
    mp.resend(paymentId)
    await mp.settled()
    expect(await paidEvents(orderId)).toBe(1)
  })

  it('an unpaid PIX at its expiry: canceled at Mercado Pago first, then the order expires', async () => {
    const { orderId, paymentId } = await pixOrder()
    await svc.deps.clock.advance(PIX_LIFE_MS + 1_000)
    await svc.workers!.runOnce('payments.reconcile')
    await statusBecomes(orderId, 'expired')
    expect(mp.payment(paymentId)).toMatchObject({
      status: 'cancelled',
      status_detail: 'by_collector',
    })
    // Paying it now is refused by Mercado Pago: nothing of the buyer's reaches a closed order.
    expect(() => mp.approve(paymentId)).toThrow()
  })
})
