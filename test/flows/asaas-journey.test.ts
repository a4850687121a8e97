// The whole journey through the Asaas adapter, over HTTP end to end: the service (on PGlite, or
// the PostgreSQL server of TEST_DATABASE_URL) calls the fake Asaas (test/fakes/asaas.ts) as its
// gateway and payout provider, and the fake calls the service back with its webhooks, as Asaas
// would. Payers, banks and card networks act through the fake's controls.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { parseDigitableLine } from '../../src/modules/payments/boleto.ts'
import { type FakeAsaas, startFakeAsaas } from '../fakes/asaas.ts'
import { type Creator, signupCreator } from '../setup/actors.ts'
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
    ASAAS_API_URL: fake.url,
    ASAAS_API_KEY: fake.apiKey,
    ASAAS_WEBHOOK_TOKEN: TOKEN,
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
    expect(created.body.pix.copy_paste).toContain('BR.GOV.BCB.PIX')
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
    fake.pay(created.body.charge_id)
    expect(await statusOf(created.body.order_id)).toBe('pending')
    await eventually(async () => {
      await svc.workers!.runOnce()
      return (await statusOf(created.body.order_id)) === 'paid'
    })
    fake.webhooks.resume()
    await fake.webhooks.whenIdle()
    expect(await statusOf(created.body.order_id)).toBe('paid')
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
    (await svc.api('GET', '/api/withdrawals', { session: creator.session })).body.find(
      (w: { id: string }) => w.id === id,
    )

  it('the bank completes the transfer: TRANSFER_DONE read back makes the withdrawal paid', async () => {
    const { id, transferId } = await paidWithdrawal(50)
    expect((await withdrawalOf(id)).status).toBe('approved')
    fake.completeTransfer(transferId)
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
