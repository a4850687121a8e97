// The buyer disputed a paid charge with their bank and the gateway took the money back: the
// order becomes `chargeback`, its access is revoked, and the ledger reverses the sale like a
// refund (a refund pending for the order fails and its reserved money becomes the chargeback's).
import type { Outbox } from '../../deps.ts'
import type { Tx } from '../../kit/db.ts'
import { toBrl } from '../../kit/money.ts'
import { revokeOrderAccess } from '../access/service.ts'
import { postChargeback } from '../ledger/sales.ts'
import { markChargeback } from '../orders/service.ts'
import { failForChargeback } from '../refunds/service.ts'
import { endSubscriptionOfOrder } from '../subscriptions/service.ts'
import { emitEvent } from '../webhooks/service.ts'
import { setChargeStatusOfOrder } from './charges.ts'

export async function chargebackOrder(tx: Tx, ctx: Outbox, orderId: string): Promise<boolean> {
  const order = await markChargeback(tx, orderId, ctx.clock.now())
  if (!order) return false
  await endSubscriptionOfOrder(tx, ctx, order, 'chargeback')
  await setChargeStatusOfOrder(tx, order.id, 'chargeback')
  const reservedRefundId = await failForChargeback(tx, ctx, order.id)
  await postChargeback(tx, ctx, { order, reservedRefundId })
  await revokeOrderAccess(tx, ctx, { orderId: order.id, reason: 'chargeback' })
  await emitEvent(tx, ctx, {
    accountId: order.account_id,
    type: 'order.chargeback',
    data: {
      order_id: order.id,
      amount: toBrl(order.amount_cents),
      product_id: order.product_id,
      buyer_email: order.buyer_email,
    },
  })
  return true
}
