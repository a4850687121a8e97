import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { parseDigitableLine } from '../../src/modules/payments/boleto.ts'
import { signupCreator } from '../setup/actors.ts'
import { checkout, createProduct } from '../setup/purchase.ts'
import { engine, eventually, startTestService, type TestService } from '../setup/service.ts'

let svc: TestService
let key: string
let recurringId: string
let oneTimeId: string
beforeAll(async () => {
  svc = await startTestService({ PIX_EXPIRES_AFTER: '30m' })
  key = await (await signupCreator(svc.api)).key(['write:products', 'read:orders', 'read:members'])
  recurringId = (
    await createProduct(svc.api, key, {
      billing: 'recurring',
      plans: [{ name: 'Mensal', price: 29.9 }],
    })
  ).id
  oneTimeId = (await createProduct(svc.api, key)).id
})
afterAll(() => svc?.stop())

describe(`card (${engine})`, () => {
  it('tok_approved is paid at once through the same path as a callback', async () => {
    const res = await checkout(svc.api, recurringId, {
      payment_method: 'card',
      card_token: 'tok_approved',
      installments: 3,
    })
    expect(res.status).toBe(201)
    expect(res.body).toMatchObject({
      status: 'paid',
      payment_method: 'card',
      card: { status: 'approved', last4: '4242' },
      pix: null,
    })
    const order = await svc.api('GET', `/api/v1/orders/${res.body.order_id}`, { key })
    expect(order.body.data.status).toBe('paid')
    const members = await svc.api('GET', '/api/v1/members', { key })
    expect(
      members.body.data.some((m: { access: { order_id: string }[] }) =>
        m.access.some((a) => a.order_id === res.body.order_id),
      ),
    ).toBe(true)
    const events = await svc.deps.db.selectFrom('events').select(['type', 'data']).execute()
    expect(
      events
        .filter((e) => (e.data as { order_id?: string }).order_id === res.body.order_id)
        .map((e) => e.type)
        .sort(),
    ).toEqual([
      'access.granted',
      'member.enrolled',
      'order.created',
      'order.paid',
      'subscription.created',
    ])
  })

  it('tok_declined answers 402 Cartão recusado and the order is failed', async () => {
    const email = 'recusado@example.com'
    const res = await checkout(svc.api, recurringId, {
      payment_method: 'card',
      card_token: 'tok_declined',
      email,
    })
    expect(res).toMatchObject({ status: 402, body: { error: 'Cartão recusado' } })
    const orders = await svc.api('GET', `/api/v1/orders?buyer_email=${email}`, { key })
    expect(orders.body.data.map((o: { status: string }) => o.status)).toEqual(['failed'])
  })

  it('a card without a token is refused, and one_time products accept PIX only', async () => {
    expect((await checkout(svc.api, recurringId, { payment_method: 'card' })).status).toBe(400)
    expect(
      (await checkout(svc.api, oneTimeId, { payment_method: 'card', card_token: 'tok_approved' }))
        .status,
    ).toBe(400)
  })
})

describe(`order expiry (${engine})`, () => {
  it('a pending PIX order expires after PIX_EXPIRES_AFTER; paying it then changes nothing', async () => {
    const res = await checkout(svc.api, oneTimeId)
    expect(res.status).toBe(201)
    const expiresAt = Date.parse(res.body.pix.expires_at)
    expect(expiresAt - Date.now()).toBeGreaterThan(29 * 60_000)
    await svc.api('POST', '/sandbox/clock/advance', { body: { seconds: 29 * 60 } })
    await svc.workers!.runOnce('orders.expire')
    expect((await svc.api('GET', `/api/orders/${res.body.order_id}/status`)).body.status).toBe(
      'pending',
    )
    await svc.api('POST', '/sandbox/clock/advance', { body: { seconds: 61 } })
    await eventually(
      async () =>
        (await svc.api('GET', `/api/orders/${res.body.order_id}/status`)).body.status === 'expired',
    )
    const late = await svc.api('POST', `/sandbox/charges/${res.body.charge_id}/pay`)
    expect(late.body.callback_status).toBe(200)
    expect((await svc.api('GET', `/api/orders/${res.body.order_id}/status`)).body.status).toBe(
      'expired',
    )
  })

  it("the gateway's expire callback expires the order", async () => {
    const res = await checkout(svc.api, oneTimeId)
    const expired = await svc.api('POST', `/sandbox/charges/${res.body.charge_id}/expire`)
    expect(expired.body.callback_status).toBe(200)
    expect((await svc.api('GET', `/api/orders/${res.body.order_id}/status`)).body.status).toBe(
      'expired',
    )
  })
})

describe(`boleto (${engine})`, () => {
  it('issues a valid 47-digit line due in 3 days; the order expires after its due date', async () => {
    const res = await checkout(svc.api, recurringId, { payment_method: 'boleto' })
    expect(res.status).toBe(201)
    expect(res.body).toMatchObject({
      status: 'pending',
      payment_method: 'boleto',
      pix: null,
      card: null,
    })
    const { boleto } = res.body
    expect(boleto.digitable_line).toMatch(/^\d{47}$/)
    expect(parseDigitableLine(boleto.digitable_line)).toEqual({
      valid: true,
      barcode: boleto.barcode,
    })
    expect(boleto.barcode.slice(9, 19)).toBe('0000002990')
    expect(boleto.barcode_image).toMatch(/^data:image\/svg\+xml;base64,/)
    const now = Date.parse(
      (await svc.api('POST', '/sandbox/clock/advance', { body: { seconds: 1 } })).body.now,
    )
    const dueIn = Date.parse(`${boleto.due_date}T12:00:00Z`) - now
    expect(dueIn).toBeGreaterThan(2 * 86_400_000)
    expect(dueIn).toBeLessThan(4 * 86_400_000)

    await svc.api('POST', '/sandbox/clock/advance', { body: { seconds: 3 * 86_400 } })
    await svc.workers!.runOnce('orders.expire')
    expect((await svc.api('GET', `/api/orders/${res.body.order_id}/status`)).body.status).toBe(
      'pending',
    )
    await svc.api('POST', '/sandbox/clock/advance', { body: { seconds: 86_400 } })
    await eventually(
      async () =>
        (await svc.api('GET', `/api/orders/${res.body.order_id}/status`)).body.status === 'expired',
    )
  })
})
