// A payment that reaches an order already closed (issue 11; SPEC §5 "a buyer is never charged
// without an order"): the PIX expired, the gateway's cancel did not stop the buyer's bank, the
// money arrives anyway. The notification gives the money back at the gateway before it is
// recorded, and the order stays closed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { signupCreator } from '../setup/actors.ts'
import { checkout, createProduct } from '../setup/purchase.ts'
import { engine, startTestService, type TestService } from '../setup/service.ts'

let svc: TestService
let productId: string
beforeAll(async () => {
  svc = await startTestService({ PIX_EXPIRES_AFTER: '30m' })
  const creator = await signupCreator(svc.api)
  const key = await creator.key(['write:products'])
  productId = (await createProduct(svc.api, key, { plans: [{ name: 'Único', price: 39.9 }] })).id
})
afterAll(() => svc?.stop())

const statusOf = async (orderId: string) =>
  (await svc.api('GET', `/api/orders/${orderId}/status`)).body.status as string
const sandboxStatus = async (chargeId: string) =>
  (
    await svc.deps.db
      .selectFrom('sandbox_charges')
      .select('status')
      .where('id', '=', chargeId)
      .executeTakeFirstOrThrow()
  ).status

describe(`late payments (${engine})`, () => {
  it('a PIX paid after its order expired is refunded at the gateway; the order stays expired', async () => {
    const res = await checkout(svc.api, productId)
    expect(res.status).toBe(201)
    const { order_id: orderId, charge_id: chargeId } = res.body
    await svc.api('POST', '/sandbox/clock/advance', { body: { seconds: 31 * 60 } })
    await svc.workers!.runOnce('orders.expire')
    expect(await statusOf(orderId)).toBe('expired')

    const paid = await svc.api('POST', `/sandbox/charges/${chargeId}/pay`)
    expect(paid.body.callback_status).toBe(200)
    expect(await sandboxStatus(chargeId)).toBe('refunded')
    expect(await statusOf(orderId)).toBe('expired')
    const recorded = await svc.deps.db
      .selectFrom('payment_callbacks')
      .select('outcome')
      .where('gateway_charge_id', '=', chargeId)
      .where('gateway_event_id', 'like', 'evt_%')
      .execute()
    expect(recorded).toEqual([{ outcome: 'late_payment_returned' }])
    const events = await svc.deps.db.selectFrom('events').select('type').execute()
    expect(events.map((e) => e.type)).not.toContain('order.paid')
  })
})
