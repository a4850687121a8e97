// Payments by one gateway, payouts by another (SPEC §5a): PAYMENT_GATEWAY=mercadopago takes the
// money, PAYOUT_PROVIDER=asaas pays withdrawals out. Both fakes are real HTTP servers; Asaas'
// transfer notices reach `/api/payments/callback/asaas`, which the payout provider reads (the
// gateway is another), while Mercado Pago's keep paying orders. Both databases.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type FakeAsaas, startFakeAsaas } from '../fakes/asaas.ts'
import { type FakeMercadoPago, startFakeMercadoPago } from '../fakes/mercadopago.ts'
import { type Creator, signupCreator } from '../setup/actors.ts'
import { asaasEnv, mercadoPagoEnv } from '../setup/gateway-env.ts'
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

const TOKEN = 'asaas-webhook-token-mixed'

let mp: FakeMercadoPago
let asaas: FakeAsaas
let svc: TestService
let admin: Session
let creator: Creator
let productId: string

beforeAll(async () => {
  mp = await startFakeMercadoPago({
    retryDelaysMs: [50, 50, 50],
    now: () => (svc ? svc.deps.clock.now() : new Date()),
  })
  asaas = await startFakeAsaas({ webhook: { retryDelayMs: 20 } })
  svc = await startTestService({
    ...mercadoPagoEnv(mp),
    PAYOUT_PROVIDER: 'asaas',
    ...asaasEnv(asaas, TOKEN),
    ...ADMIN,
  })
  asaas.webhooks.setTarget(`${svc.url}/api/payments/callback/asaas`, TOKEN)
  // The platform's Asaas account holds what it pays out (its sales went through Mercado Pago).
  asaas.setBalance(1_000_00)
  admin = await adminSession(svc.api)
  creator = await signupCreator(svc.api)
  const key = await creator.key(['write:products'])
  productId = (await createProduct(svc.api, key, { plans: [{ name: 'Único', price: 80 }] })).id
  await verifiedPixKey(svc.api, admin, creator)
})
afterAll(async () => {
  await svc?.stop()
  await mp?.close()
  await asaas?.close()
})

const statusOf = async (orderId: string) =>
  (await svc.api('GET', `/api/orders/${orderId}/status`)).body.status as string

describe(`Mercado Pago payments, Asaas payouts (${engine})`, () => {
  it('a sale paid at Mercado Pago is withdrawn by an Asaas transfer, which its TRANSFER_DONE notice settles', async () => {
    const sale = await checkout(svc.api, productId)
    expect(sale.status).toBe(201)
    await mp.settled()
    mp.approve(sale.body.charge_id)
    await mp.settled()
    await eventually(async () => (await statusOf(sale.body.order_id)) === 'paid')

    const id = (await withdraw(svc.api, creator, 80)).body.withdrawal_id as string
    expect((await review(svc.api, admin, id, 'approve')).status).toBe(200)
    const paying = await review(svc.api, admin, id, 'pay')
    expect(paying.status).toBe(200)
    expect(paying.body.data).toMatchObject({ status: 'approved', transfer_in_progress: true })
    const transfer = asaas.transfers().find((t) => t.externalReference === id)!
    expect(transfer).toMatchObject({ value: 80, status: 'PENDING' })

    asaas.completeTransfer(transfer.id as string)
    await asaas.webhooks.whenIdle()
    const mine = await svc.api('GET', '/api/withdrawals', { session: creator.session })
    expect(mine.body.data.find((w: { id: string }) => w.id === id)).toMatchObject({
      status: 'paid',
      transfer_in_progress: false,
    })
    expect(await balanceOf(svc.api, creator)).toMatchObject({ available: 0, withdrawn_total: 80 })
  })

  it('the Asaas callback route reads only with the payout provider: a wrong token is 401, the sandbox route does not exist', async () => {
    const forged = await svc.api('POST', '/api/payments/callback/asaas', {
      body: { id: 'evt_forged', event: 'TRANSFER_DONE', transfer: { id: 'x' } },
      headers: { 'asaas-access-token': 'not-the-token' },
    })
    expect(forged.status).toBe(401)
    const sandbox = await svc.api('POST', '/api/payments/callback/sandbox', { body: {} })
    expect(sandbox.status).toBe(404)
    expect((await svc.api('POST', '/sandbox/charges/x/pay')).status).toBe(404)
  })
})
