// A pending order that will never be paid: its PIX expired (worker) or the gateway said so
// (callback) → expired; its card was declined or its charge could not be kept → failed. The
// coupon redemption it held goes back and its shares are canceled.
import type { Outbox } from '../../deps.ts'
import type { Tx } from '../../kit/db.ts'
import { releaseCoupon } from '../catalog/coupons.ts'
import { cancelShares } from '../ledger/shares.ts'
import { markExpired, markFailed } from '../orders/service.ts'
import { emitEvent } from '../webhooks/service.ts'
import { openCheck } from './checks.ts'
import { paymentsRepo } from './repo.ts'

type Ctx = Outbox
type ClosedOrder = NonNullable<Awaited<ReturnType<typeof markFailed>>>

async function letGo(tx: Tx, ctx: Ctx, order: ClosedOrder) {
  if (order.coupon_code) await releaseCoupon(tx, order.product_id, order.coupon_code)
  await cancelShares(tx, ctx, order)
}

/** `order.expired` tells the creator. */
export async function expireOrder(tx: Tx, ctx: Ctx, orderId: string): Promise<boolean> {
  const order = await markExpired(tx, orderId, ctx.clock.now())
  if (!order) return false
  await letGo(tx, ctx, order)
  // No charge recorded (a card or renewal whose gateway answer never came back): the gateway
  // is asked later whether it holds one, which is then canceled.
  if (!(await paymentsRepo.latestChargeOf(tx, order.id))) {
    await openCheck(tx, ctx, { id: order.id, kind: 'charge' })
  }
  await paymentsRepo.expireChargesOf(tx, order.id)
  await emitEvent(tx, ctx, {
    accountId: order.account_id,
    type: 'order.expired',
    data: { order_id: order.id, product_id: order.product_id, buyer_email: order.buyer_email },
  })
  return true
}

/** pending → failed (a declined card, a charge canceled because our side could not keep it). */
export async function failOrder(tx: Tx, ctx: Ctx, orderId: string): Promise<boolean> {
  const order = await markFailed(tx, orderId, ctx.clock.now())
  if (!order) return false
  await letGo(tx, ctx, order)
  return true
}
