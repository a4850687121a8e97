// A pending order that will never be paid: its PIX expired (worker) or the gateway said so
// (callback). The coupon redemption it held goes back; `order.expired` tells the creator.
import type { Deps } from '../../deps.ts'
import type { Tx } from '../../kit/db.ts'
import { releaseCoupon } from '../catalog/coupons.ts'
import { cancelShares } from '../ledger/shares.ts'
import { markExpired } from '../orders/service.ts'
import { emitEvent } from '../webhooks/service.ts'
import { paymentsRepo } from './repo.ts'

export async function expireOrder(
  tx: Tx,
  ctx: Pick<Deps, 'clock'>,
  orderId: string,
): Promise<boolean> {
  const order = await markExpired(tx, orderId, ctx.clock.now())
  if (!order) return false
  if (order.coupon_code) await releaseCoupon(tx, order.product_id, order.coupon_code)
  await cancelShares(tx, ctx, order)
  await paymentsRepo.expireChargesOf(tx, order.id)
  await emitEvent(tx, ctx, {
    accountId: order.account_id,
    type: 'order.expired',
    data: { order_id: order.id, product_id: order.product_id, buyer_email: order.buyer_email },
  })
  return true
}
