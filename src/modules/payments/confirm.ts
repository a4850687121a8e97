// Payment confirmed: the one flow that spans orders, access, events and e-mail. Runs inside the
// caller's transaction, so everything below exists exactly when the order is paid.
import type { Deps } from '../../deps.ts'
import type { Tx } from '../../kit/db.ts'
import { toBrl } from '../../kit/money.ts'
import { grantAccess } from '../access/service.ts'
import { findPlanWithProduct } from '../catalog/service.ts'
import { queueEmail } from '../email/service.ts'
import { deliveryEmail } from '../email/templates.ts'
import { postSale } from '../ledger/sales.ts'
import { markPaid } from '../orders/service.ts'
import { subscriptionPaid } from '../subscriptions/service.ts'
import { emitEvent } from '../webhooks/service.ts'

type Ctx = Pick<Deps, 'clock' | 'config'>

/** pending → paid with all its effects; false when the order was not pending (a repeat). */
export async function confirmPayment(tx: Tx, ctx: Ctx, orderId: string): Promise<boolean> {
  const paidAt = ctx.clock.now()
  const order = await markPaid(tx, orderId, paidAt)
  if (!order) return false
  await emitEvent(tx, ctx, {
    accountId: order.account_id,
    type: 'order.paid',
    data: {
      order_id: order.id,
      amount: toBrl(order.amount_cents),
      currency: order.currency,
      product_id: order.product_id,
      plan_id: order.plan_id,
      buyer_id: order.buyer_id,
      buyer_email: order.buyer_email,
      payment_method: order.payment_method,
      affiliate_id: order.affiliate_id,
      paid_at: paidAt.toISOString(),
    },
  })
  // A renewal keeps the access the subscription's first order granted.
  const plan = await findPlanWithProduct(tx, order.plan_id)
  const subscription = await subscriptionPaid(tx, ctx, order, plan)
  if (subscription !== 'renewed')
    await grantAccess(tx, ctx, {
      accountId: order.account_id,
      buyerId: order.buyer_id,
      productId: order.product_id,
      orderId: order.id,
    })
  await queueEmail(tx, ctx, {
    to: order.buyer_email,
    dedupeKey: `delivery:${order.id}`,
    ...deliveryEmail({
      buyerName: order.buyer_name,
      productName: plan?.product_name ?? 'seu produto',
      amountCents: order.amount_cents,
      orderId: order.id,
      deliveryUrl: plan?.product_delivery_url ?? null,
      membersUrl: `${ctx.config.baseUrl}/members`,
    }),
  })
  // Last: it locks the rows it writes (the holders' balances, one random slot of the
  // account's balance) until commit, so anything that does meet them waits as little as it can.
  await postSale(tx, ctx, order)
  return true
}
