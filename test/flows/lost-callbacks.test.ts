// Lost callbacks (issue 11, point 6): an order paid at the gateway is never left pending
// because the gateway's notification never arrived. The sandbox pays a charge without calling
// back (`?notify=false`); the order is then paid by reconciliation alone: by the periodic look,
// or by the look the expiry makes before it expires anything. An unpaid one is canceled at the
// gateway before it expires, so it cannot be paid after.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { signupCreator } from '../setup/actors.ts'
import { expectBooksExact } from '../setup/ledger.ts'
import { checkout, createProduct } from '../setup/purchase.ts'
import { engine, startTestService, type TestService } from '../setup/service.ts'

let svc: TestService
let key: string
let accountId: string
let oneTimeId: string
let recurringId: string
beforeAll(async () => {
  svc = await startTestService({ PIX_EXPIRES_AFTER: '30m' })
  const creator = await signupCreator(svc.api)
  accountId = creator.accountId
  key = await creator.key(['write:products', 'read:orders'])
  oneTimeId = (await createProduct(svc.api, key, { plans: [{ name: 'Único', price: 47.5 }] })).id
  recurringId = (
    await createProduct(svc.api, key, {
      billing: 'recurring',
      plans: [{ name: 'Mensal', price: 29.9 }],
    })
  ).id
})
afterAll(() => svc?.stop())

const advance = (seconds: number) =>
  svc.api('POST', '/sandbox/clock/advance', { body: { seconds } })
const statusOf = async (orderId: string) =>
  (await svc.api('GET', `/api/orders/${orderId}/status`)).body.status as string
const payQuietly = (chargeId: string) =>
  svc.api('POST', `/sandbox/charges/${chargeId}/pay?notify=false`)
const sandboxCharge = (chargeId: string) =>
  svc.deps.db
    .selectFrom('sandbox_charges')
    .select('status')
    .where('id', '=', chargeId)
    .executeTakeFirstOrThrow()
const lookupsOf = (chargeId: string) =>
  svc.deps.db
    .selectFrom('payment_callbacks')
    .select(['gateway_event_id', 'action', 'outcome'])
    .where('gateway_charge_id', '=', chargeId)
    .orderBy('received_at')
    .execute()
const checkOf = (orderId: string) =>
  svc.deps.db
    .selectFrom('gateway_checks')
    .select(['status', 'next_attempt_at', 'note'])
    .where('id', '=', orderId)
    .executeTakeFirstOrThrow()
const now = async () => new Date((await advance(1)).body.now).getTime()

describe(`lost callbacks (${engine})`, () => {
  it('a PIX paid without a callback is found paid by the first look, 5 minutes on; a late callback changes nothing', async () => {
    const res = await checkout(svc.api, oneTimeId)
    expect(res.status).toBe(201)
    const { order_id: orderId, charge_id: chargeId } = res.body
    const quiet = await payQuietly(chargeId)
    expect(quiet.status).toBe(200)
    expect(quiet.body).toEqual({ charge_id: chargeId, order_id: orderId, callback_status: null })
    expect(await sandboxCharge(chargeId)).toEqual({ status: 'paid' })

    // Nothing told the service: the order waits, and no look is due yet.
    await svc.workers!.runOnce('payments.reconcile')
    expect(await statusOf(orderId)).toBe('pending')

    await advance(5 * 60)
    await svc.workers!.runOnce('payments.reconcile')
    expect(await statusOf(orderId)).toBe('paid')
    expect(await lookupsOf(chargeId)).toEqual([
      { gateway_event_id: `lookup:${chargeId}:paid`, action: 'paid', outcome: 'paid' },
    ])
    expect(await checkOf(orderId)).toMatchObject({ status: 'settled' })

    // The gateway's notification arrives after all: one effect between the two.
    const late = await svc.api('POST', `/sandbox/charges/${chargeId}/pay`)
    expect(late.body.callback_status).toBe(200)
    const order = await svc.api('GET', `/api/v1/orders/${orderId}`, { key })
    expect(order.body.data).toMatchObject({ status: 'paid' })
    const events = await svc.deps.db
      .selectFrom('events')
      .select(['type', 'data'])
      .where('type', '=', 'order.paid')
      .execute()
    expect(
      events.filter((e) => (e.data as { order_id?: string }).order_id === orderId),
    ).toHaveLength(1)
    await expectBooksExact(svc.deps.db, { accounts: [accountId], affiliates: [], coproducers: [] })
  })

  it('a PIX paid by its callback settles its check in the payment: nothing is left to look up', async () => {
    const res = await checkout(svc.api, oneTimeId)
    const { order_id: orderId, charge_id: chargeId } = res.body
    expect(await checkOf(orderId)).toMatchObject({ status: 'pending' })
    const paid = await svc.api('POST', `/sandbox/charges/${chargeId}/pay`)
    expect(paid.body.callback_status).toBe(200)
    expect(await statusOf(orderId)).toBe('paid')
    expect(await checkOf(orderId)).toMatchObject({ status: 'settled', note: 'order paid' })
    // Past the first look's time the reconciliation finds nothing due for it.
    await advance(5 * 60)
    expect(await svc.workers!.runOnce('payments.reconcile')).toBe(0)
  })

  it('looks again with doubling waits, the last one at the expiry', async () => {
    const res = await checkout(svc.api, oneTimeId)
    const { order_id: orderId } = res.body
    const issued = (
      await svc.deps.db
        .selectFrom('charges')
        .select('created_at')
        .where('order_id', '=', orderId)
        .executeTakeFirstOrThrow()
    ).created_at.getTime()
    const minutes = (ms: number) => Math.round(ms / 60_000)
    /** Moves the clock just past the next look, runs it, and says when it came (minutes). */
    const nextLook = async () => {
      const at = (await checkOf(orderId)).next_attempt_at.getTime()
      await advance(Math.max(1, Math.ceil((at - (await now())) / 1000) + 1))
      await svc.workers!.runOnce('payments.reconcile')
      return minutes(at - issued)
    }
    expect(await nextLook()).toBe(5)
    expect(await nextLook()).toBe(10)
    expect(await nextLook()).toBe(20)
    // 40 minutes would be past the PIX's 30: the last look is at the expiry itself.
    const expiresAt = Date.parse(res.body.pix.expires_at)
    expect((await checkOf(orderId)).next_attempt_at.getTime()).toBe(expiresAt)
    expect(await statusOf(orderId)).toBe('pending')
  })

  it('paid without a callback just before the expiry: the expiry asks first, and the order is paid', async () => {
    const res = await checkout(svc.api, oneTimeId)
    const { order_id: orderId, charge_id: chargeId } = res.body
    await advance(29 * 60)
    await payQuietly(chargeId)
    await advance(2 * 60)
    await svc.workers!.runOnce('orders.expire')
    expect(await statusOf(orderId)).toBe('paid')
    expect(await sandboxCharge(chargeId)).toEqual({ status: 'paid' })
  })

  it('unpaid at the expiry: canceled at the gateway, then expired; paying it later changes nothing', async () => {
    const res = await checkout(svc.api, oneTimeId)
    const { order_id: orderId, charge_id: chargeId } = res.body
    await advance(31 * 60)
    await svc.workers!.runOnce('orders.expire')
    expect(await statusOf(orderId)).toBe('expired')
    expect(await sandboxCharge(chargeId)).toEqual({ status: 'canceled' })
    expect(await lookupsOf(chargeId)).toEqual([
      { gateway_event_id: `lookup:${chargeId}:canceled`, action: 'expired', outcome: 'expired' },
    ])
    expect(await checkOf(orderId)).toMatchObject({ status: 'settled' })
    await payQuietly(chargeId)
    await advance(6 * 60)
    await svc.workers!.runOnce()
    expect(await statusOf(orderId)).toBe('expired')
  })

  it('a boleto paid without a callback is paid by reconciliation alone', async () => {
    const res = await checkout(svc.api, recurringId, { payment_method: 'boleto' })
    expect(res.status).toBe(201)
    const { order_id: orderId, charge_id: chargeId } = res.body
    await advance(3600)
    await svc.workers!.runOnce('payments.reconcile')
    expect(await statusOf(orderId)).toBe('pending')
    await payQuietly(chargeId)
    // Doubling waits: the next look comes within as long again as the boleto has existed.
    await advance(3600 + 60)
    await svc.workers!.runOnce('payments.reconcile')
    expect(await statusOf(orderId)).toBe('paid')
    const subscription = await svc.deps.db
      .selectFrom('subscriptions')
      .select('status')
      .where('first_order_id', '=', orderId)
      .executeTakeFirstOrThrow()
    expect(subscription.status).toBe('active')
  })
})
