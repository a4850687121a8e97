// The whole journey through the Asaas adapter, over HTTP end to end: the service (on PGlite, or
// the PostgreSQL server of TEST_DATABASE_URL) calls the fake Asaas (test/fakes/asaas.ts) as its
// gateway and payout provider, and the fake calls the service back with its webhooks, as Asaas
// would. Payers, banks and card networks act through the fake's controls.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { parseDigitableLine } from '../../src/modules/payments/boleto.ts'
import { parsePixCopyPaste } from '../../src/modules/payments/brcode.ts'
import { DECLINED_CARDS, type FakeAsaas, startFakeAsaas } from '../fakes/asaas.ts'
import { type Creator, signupCreator } from '../setup/actors.ts'
import { asaasEnv } from '../setup/gateway-env.ts'
import {
  ADMIN,
  adminSession,
  balanceOf,
  review,
  verifiedPixKey,
  withdraw,
} from '../setup/payouts.ts'
import { checkout, createProduct } from '../setup/purchase.ts'
import {
  engine,
  eventually,
  type Session,
  startTestService,
  type TestService,
} from '../setup/service.ts'

const TOKEN = 'asaas-webhook-token-journey'
/** Any generated card is approved by Asaas' sandbox (and the fake); its documented 4444…4444
 * fails the Luhn check the checkout makes before anything reaches a gateway. */
const APPROVED_CARD = '4111111111111111'
const SCOPES = ['write:products', 'read:orders', 'refunds:create', 'read:refunds']

let fake: FakeAsaas
let svc: TestService
let admin: Session
let creator: Creator
let key: string

beforeAll(async () => {
  fake = await startFakeAsaas({ webhook: { retryDelayMs: 20 } })
  svc = await startTestService({
    PAYMENT_GATEWAY: 'asaas',
    PAYOUT_PROVIDER: 'asaas',
    ...asaasEnv(fake, TOKEN),
    ...ADMIN,
  })
  fake.webhooks.setTarget(`${svc.url}/api/payments/callback/asaas`, TOKEN)
  admin = await adminSession(svc.api)
  creator = await signupCreator(svc.api)
  key = await creator.key(SCOPES)
  await verifiedPixKey(svc.api, admin, creator)
})
afterAll(async () => {
  await svc?.stop()
  await fake?.close()
})

const statusOf = async (orderId: string) =>
  (await svc.api('GET', `/api/orders/${orderId}/status`)).body.status as string

async function product(price = 100, overrides: Record<string, unknown> = {}) {
  return (await createProduct(svc.api, key, { plans: [{ name: 'Único', price }], ...overrides })).id
}

/** A PIX order at Asaas, paid by the buyer; resolves once the webhook made it paid. */
async function paidPixOrder(price = 100) {
  const created = await checkout(svc.api, await product(price))
  expect(created.status).toBe(201)
  fake.pay(created.body.charge_id)
  await fake.webhooks.whenIdle()
  expect(await statusOf(created.body.order_id)).toBe('paid')
  return { orderId: created.body.order_id as string, chargeId: created.body.charge_id as string }
}

/** The notification Asaas sent last about a payment. */
function lastEventOf(paymentId: string) {
  return fake.webhooks.events.filter((e) => e.payment?.id === paymentId).at(-1)!
}

const postCallback = (body: unknown, token?: string) =>
  fetch(`${svc.url}/api/payments/callback/asaas`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(token === undefined ? {} : { 'asaas-access-token': token }),
    },
    body: JSON.stringify(body),
  })

describe(`Asaas: PIX and boleto (${engine})`, () => {
  it('PIX: Asaas issues the code, the buyer pays, the webhook read back makes the order paid', async () => {
    const created = await checkout(svc.api, await product(100))
    expect(created.status).toBe(201)
    expect(created.body).toMatchObject({ status: 'pending', payment_method: 'pix' })
    const payment = fake.payment(created.body.charge_id)!
    expect(payment).toMatchObject({ externalReference: created.body.order_id, value: 100 })
    const code = parsePixCopyPaste(created.body.pix.copy_paste)
    expect(code).toMatchObject({ crcValid: true, fields: { '54': '100.00' } })
    fake.pay(created.body.charge_id)
    await fake.webhooks.whenIdle()
    expect(await statusOf(created.body.order_id)).toBe('paid')
    // Every delivery was answered 200 (only 200 counts at Asaas).
    const attempts = fake.webhooks.attempts.filter(
      (a) => a.eventId === lastEventOf(payment.id as string).id,
    )
    expect(attempts.map((a) => a.status)).toEqual([200])
  })

  it('boleto: the line Asaas issued, paid, makes the order paid', async () => {
    const id = await product(120, { payment_methods: ['pix', 'boleto'] })
    const created = await checkout(svc.api, id, { payment_method: 'boleto' })
    expect(created.status).toBe(201)
    const { boleto } = created.body
    expect(parseDigitableLine(boleto.digitable_line).valid).toBe(true)
    fake.pay(created.body.charge_id)
    await fake.webhooks.whenIdle()
    expect(await statusOf(created.body.order_id)).toBe('paid')
  })
})

describe(`Asaas: card (${engine})`, () => {
  const cardProduct = (price = 300) =>
    product(price, { payment_methods: ['pix', 'card'], max_installments: 12 })
  const withCard = (productId: string, number: string, extra: Record<string, unknown> = {}) =>
    checkout(svc.api, productId, {
      payment_method: 'card',
      card: {
        holder_name: 'BEATRIZ C',
        number,
        expiry_month: '12',
        expiry_year: '2035',
        cvv: '123',
      },
      postal_code: '01310-100',
      address_number: '1000',
      ...extra,
    })
  const paymentsOf = (orderId: string) =>
    fake.payments().filter((p) => p.externalReference === orderId)

  it('approved: paid at once, with the holder data and the buyer IP Asaas asks for', async () => {
    const created = await withCard(await cardProduct(), APPROVED_CARD)
    expect(created.status).toBe(201)
    expect(created.body).toMatchObject({
      status: 'paid',
      card: { status: 'approved', last4: '1111' },
    })
    expect(await statusOf(created.body.order_id)).toBe('paid')
    const sent = fake.requests.filter((r) => r.method === 'POST' && r.path === '/payments').at(-1)!
    expect(sent.body).toMatchObject({
      billingType: 'CREDIT_CARD',
      externalReference: created.body.order_id,
      creditCard: { number: '************1111', ccv: '***' },
      creditCardHolderInfo: { postalCode: '01310100', addressNumber: '1000' },
      remoteIp: expect.any(String),
    })
  })

  it("declined: 402 with Asaas' reason, the order failed, nothing kept at Asaas", async () => {
    const email = `recusado-${Date.now()}@example.com`
    const created = await withCard(await cardProduct(), DECLINED_CARDS[1]!, { email })
    expect(created.status).toBe(402)
    expect(created.body.error).toBe('Cartão recusado')
    expect(created.body.details[0].message).toMatch(/não autorizada/)
    const orders = await svc.deps.db
      .selectFrom('orders')
      .select(['id', 'status'])
      .where('buyer_email', '=', email)
      .execute()
    expect(orders.map((o) => o.status)).toEqual(['failed'])
    expect(paymentsOf(orders[0]!.id)).toEqual([])
  })

  it('installments: one Asaas payment per installment, one paid order of the whole amount', async () => {
    const created = await withCard(await cardProduct(300), APPROVED_CARD, { installments: 3 })
    expect(created.status).toBe(201)
    expect(created.body).toMatchObject({ status: 'paid', installments: 3, amount: 300 })
    const payments = paymentsOf(created.body.order_id)
    expect(payments.map((p) => p.value)).toEqual([100, 100, 100])
    expect(payments.every((p) => p.status === 'CONFIRMED')).toBe(true)
  })

  it('refund of an installment purchase returns every installment at Asaas', async () => {
    const created = await withCard(await cardProduct(300), APPROVED_CARD, { installments: 3 })
    const orderId = created.body.order_id as string
    const asked = await svc.api('POST', `/api/v1/orders/${orderId}/refund`, {
      key,
      body: { reason: 'Arrependimento' },
    })
    expect(asked.status).toBe(201)
    await eventually(async () => {
      await svc.workers!.runOnce()
      const refund = await svc.api('GET', `/api/v1/refunds/${asked.body.data.id}`, { key })
      return refund.body.data.status === 'completed'
    })
    expect(paymentsOf(orderId).map((p) => p.status)).toEqual(['REFUNDED', 'REFUNDED', 'REFUNDED'])
    await fake.webhooks.whenIdle()
    expect(await statusOf(orderId)).toBe('refunded')
  })

  it('chargeback: the cardholder disputes, the webhook read back charges the order back', async () => {
    const created = await withCard(await cardProduct(), APPROVED_CARD)
    fake.chargeback(created.body.charge_id)
    await fake.webhooks.whenIdle()
    expect(await statusOf(created.body.order_id)).toBe('chargeback')
  })
})

describe(`Asaas: callbacks forged, repeated, concurrent, lost (${engine})`, () => {
  it('a forged callback (no token, a wrong one) is 401 and changes nothing', async () => {
    const created = await checkout(svc.api, await product())
    const forged = { ...lastEventOf(created.body.charge_id), event: 'PAYMENT_RECEIVED' }
    expect((await postCallback(forged)).status).toBe(401)
    expect((await postCallback(forged, 'not-the-token')).status).toBe(401)
    expect(await statusOf(created.body.order_id)).toBe('pending')
    // Even with the token, the event's word is not trusted: the payment is still pending.
    expect((await postCallback(forged, TOKEN)).status).toBe(200)
    expect(await statusOf(created.body.order_id)).toBe('pending')
  })

  it('one event delivered many times, at once: one paid transition', async () => {
    const { orderId, chargeId } = await paidPixOrder()
    const statuses = await fake.webhooks.redeliver(lastEventOf(chargeId).id, 10)
    expect(statuses.every((s) => s === 200)).toBe(true)
    const events = await svc.deps.db.selectFrom('events').select(['type', 'data']).execute()
    const paid = events.filter(
      (e) => e.type === 'order.paid' && (e.data as { order_id?: string }).order_id === orderId,
    )
    expect(paid).toHaveLength(1)
  })

  it('a lost callback: reconciliation reads the payment at Asaas and settles the order', async () => {
    const created = await checkout(svc.api, await product())
    fake.webhooks.pause()
    try {
      fake.pay(created.body.charge_id)
      await svc.workers!.runOnce()
      expect(await statusOf(created.body.order_id)).toBe('pending')
      // Pending charges are looked up at the gateway a few minutes on.
      await svc.deps.clock.advance(6 * 60_000)
      await eventually(async () => {
        await svc.workers!.runOnce()
        return (await statusOf(created.body.order_id)) === 'paid'
      })
    } finally {
      fake.webhooks.resume()
    }
    await fake.webhooks.whenIdle()
    expect(await statusOf(created.body.order_id)).toBe('paid')
  })

  it("a lost answer to the PIX create: reconciliation records Asaas' charge, and the order keeps Vitrine's expiry", async () => {
    const productId = await product()
    fake.loseNextResponse({ method: 'POST', path: '/payments' })
    const lost = await checkout(svc.api, productId)
    expect(lost.status).toBe(502)
    const order = await svc.deps.db
      .selectFrom('orders')
      .select(['id', 'expires_at'])
      .orderBy('created_at', 'desc')
      .executeTakeFirstOrThrow()
    // Past the grace a request has to record its own answer: the worker looks the order up.
    await svc.deps.clock.advance(3 * 60_000)
    await eventually(async () => {
      await svc.workers!.runOnce()
      const charge = await svc.deps.db
        .selectFrom('charges')
        .select('id')
        .where('order_id', '=', order.id)
        .executeTakeFirst()
      return charge !== undefined
    })
    const after = await svc.deps.db
      .selectFrom('orders')
      .select(['status', 'expires_at'])
      .where('id', '=', order.id)
      .executeTakeFirstOrThrow()
    // Asaas keeps only a due day: the charge read back must not stretch the order's 30 minutes.
    expect(after).toEqual({ status: 'pending', expires_at: order.expires_at })
  })

  it("Vitrine's own PIX expiry removes the charge at Asaas (whose QR would live 12 months)", async () => {
    const created = await checkout(svc.api, await product())
    await svc.deps.clock.advance(31 * 60_000)
    await eventually(async () => {
      await svc.workers!.runOnce()
      return (await statusOf(created.body.order_id)) === 'expired'
    })
    expect(fake.payment(created.body.charge_id)).toMatchObject({ deleted: true })
  })
})

describe(`Asaas: refunds (${engine})`, () => {
  it('a full refund goes to Asaas once and completes the refund', async () => {
    const { orderId, chargeId } = await paidPixOrder()
    const asked = await svc.api('POST', `/api/v1/orders/${orderId}/refund`, {
      key,
      body: { reason: 'Desistência' },
    })
    expect(asked.status).toBe(201)
    await eventually(async () => {
      await svc.workers!.runOnce()
      const refund = await svc.api('GET', `/api/v1/refunds/${asked.body.data.id}`, { key })
      return refund.body.data.status === 'completed'
    })
    await fake.webhooks.whenIdle()
    expect(fake.payment(chargeId)).toMatchObject({ status: 'REFUNDED' })
    expect(fake.payment(chargeId)!.refunds).toHaveLength(1)
    expect(await statusOf(orderId)).toBe('refunded')
  })
})

describe(`Asaas: payouts (${engine})`, () => {
  async function paidWithdrawal(amount: number) {
    await paidPixOrder(amount)
    const asked = await withdraw(svc.api, creator, amount)
    expect(asked.status).toBe(201)
    const id = asked.body.withdrawal_id as string
    expect((await review(svc.api, admin, id, 'approve')).status).toBe(200)
    const paid = await review(svc.api, admin, id, 'pay')
    expect(paid.status).toBe(200)
    const transfer = fake.transfers().find((t) => t.externalReference === id)!
    expect(transfer).toMatchObject({ value: amount, status: 'PENDING' })
    return { id, transferId: transfer.id as string }
  }

  const withdrawalOf = async (id: string) =>
    (await svc.api('GET', '/api/withdrawals', { session: creator.session })).body.data.find(
      (w: { id: string }) => w.id === id,
    )

  it('the bank completes the transfer: TRANSFER_DONE read back makes the withdrawal paid', async () => {
    const { id, transferId } = await paidWithdrawal(50)
    expect((await withdrawalOf(id)).status).toBe('approved')
    fake.completeTransfer(transferId)
    await fake.webhooks.whenIdle()
    expect((await withdrawalOf(id)).status).toBe('paid')
  })

  it("Asaas' withdrawal validation: our started transfer approved, anything else refused", async () => {
    const { transferId } = await paidWithdrawal(30)
    // As Asaas posts it 5 s after the transfer (the fake does not model this webhook).
    const transfer = {
      ...fake.transfer(transferId)!,
      bankAccount: { pixAddressKey: '52998224725' },
    }
    const ask = (body: unknown, token?: string) =>
      svc.api('POST', '/api/payouts/asaas/authorization', {
        body,
        headers: token === undefined ? {} : { 'asaas-access-token': token },
      })
    expect((await ask({ type: 'TRANSFER', transfer }, TOKEN)).body).toEqual({ status: 'APPROVED' })
    expect((await ask({ type: 'TRANSFER', transfer })).status).toBe(401)
    expect((await ask({ type: 'TRANSFER', transfer }, 'not-the-token')).status).toBe(401)
    const other = { ...transfer, value: 3000 }
    expect((await ask({ type: 'TRANSFER', transfer: other }, TOKEN)).body).toEqual({
      status: 'REFUSED',
      refuseReason: 'O valor difere do saque.',
    })
  })

  it('a lost answer to the transfer: paying again finds it at Asaas, one transfer only', async () => {
    await paidPixOrder(60)
    const id = (await withdraw(svc.api, creator, 60)).body.withdrawal_id as string
    await review(svc.api, admin, id, 'approve')
    fake.loseNextResponse({ method: 'POST', path: '/transfers' })
    expect((await review(svc.api, admin, id, 'pay')).status).toBe(502)
    expect((await review(svc.api, admin, id, 'pay')).status).toBe(200)
    const transfers = fake.transfers().filter((t) => t.externalReference === id)
    expect(transfers).toHaveLength(1)
    fake.completeTransfer(transfers[0]!.id as string)
    await fake.webhooks.whenIdle()
    expect((await withdrawalOf(id)).status).toBe('paid')
  })

  it('the bank fails the transfer: the withdrawal is rejected and the money is back', async () => {
    const before = (await balanceOf(svc.api, creator)).available
    const { id, transferId } = await paidWithdrawal(40)
    fake.failTransfer(transferId, 'Chave Pix não encontrada.')
    await fake.webhooks.whenIdle()
    const withdrawal = await withdrawalOf(id)
    expect(withdrawal.status).toBe('rejected')
    expect((await balanceOf(svc.api, creator)).available).toBe(before + 40)
  })
})
