// Payment confirmed: the one flow that spans orders, access, events and e-mail. Runs inside the
// caller's transaction, so everything below exists exactly when the order is paid.
import type { Deps, Outbox } from '../../deps.ts'
import type { Tx } from '../../kit/db.ts'
import { toBrl } from '../../kit/money.ts'
import { grantParts } from '../access/service.ts'
import { memberLinkUrl } from '../accounts/member-links.ts'
import { mailParts, type QueuedMail } from '../email/service.ts'
import { deliveryEmail, saleNotificationEmail } from '../email/templates.ts'
import { postSale } from '../ledger/sales.ts'
import { type MarkedPaid, markPaid } from '../orders/service.ts'
import { noticedOnItsOwn } from '../sale-notices/service.ts'
import { subscriptionPaid } from '../subscriptions/service.ts'
import { emitEvents } from '../webhooks/service.ts'
import { settleCheckPart } from './checks.ts'

type Ctx = Outbox & Pick<Deps, 'config'>

/**
 * pending → paid with all its effects; false when the order was not pending (a repeat).
 * `recorded`: what a callback records with it, in the statement that marks the order paid.
 */
export async function confirmPayment(
  tx: Tx,
  ctx: Ctx,
  orderId: string,
  recorded?: Parameters<typeof markPaid>[3],
): Promise<boolean> {
  const paidAt = ctx.clock.now()
  const paid = await markPaid(tx, orderId, paidAt, recorded)
  if (!paid) return false
  await paidOrderEffects(tx, ctx, paid, paidAt)
  return true
}

/**
 * Everything an order just marked paid brings, in the transaction that marked it.
 * `endsTransaction`: the caller runs nothing more in it, so its last statement may commit it.
 */
export async function paidOrderEffects(
  tx: Tx,
  ctx: Ctx,
  paid: MarkedPaid,
  paidAt: Date,
  { endsTransaction = false } = {},
) {
  const { order, hasShares, plan, notify } = paid
  const paidEvent = {
    type: 'order.paid' as const,
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
  }
  // `order.paid` comes first. A one-time sale writes it with the access events, in one
  // statement; a subscription's payment before the subscription's own events.
  const recurring = Boolean(order.subscription_id || plan?.interval)
  if (recurring) await emitEvents(tx, ctx, order.account_id, [paidEvent])
  // A renewal keeps the access the subscription's first order granted.
  const subscription = await subscriptionPaid(tx, ctx, order, plan ?? undefined)
  const renewed = subscription === 'renewed'
  const access = renewed
    ? []
    : grantParts(
        ctx,
        {
          accountId: order.account_id,
          buyerId: order.buyer_id,
          productId: order.product_id,
          orderId: order.id,
        },
        recurring ? [] : [paidEvent],
      )
  // The owner hears of the sale now, or in its notice window's summary (sale-notices/).
  const noticed = notify !== null && (await noticedOnItsOwn(tx, ctx, notify, order, paidAt))
  // Last, in one statement with the access, its events, the mails and the order's gateway
  // check (nothing is left to look up once it is paid; else the reconciliation would look a
  // paid order up minutes after every sale): the sale's posting locks the rows it writes (the
  // holders' balances, one random slot of the account's balance) until commit, so anything
  // that does meet them waits as little as it can.
  await postSale(
    tx,
    ctx,
    order,
    hasShares,
    [
      ...access,
      ...mailParts(ctx, saleMails(ctx, paid, renewed, noticed)),
      settleCheckPart(ctx, order.id, 'order paid'),
    ],
    { endsTransaction },
  )
}

/** The buyer's delivery mail and, when the sale is `noticed` on its own, the owner's notice. */
function saleMails(
  ctx: Ctx,
  { order, plan, notify }: MarkedPaid,
  renewed: boolean,
  noticed: boolean,
): QueuedMail[] {
  const productName = plan?.product_name ?? 'seu produto'
  const mails: QueuedMail[] = [
    {
      to: order.buyer_email,
      dedupeKey: `delivery:${order.id}`,
      ...deliveryEmail({
        buyerName: order.buyer_name,
        productName,
        amountCents: order.amount_cents,
        orderId: order.id,
        deliveryUrl: plan?.product_delivery_url ?? null,
        membersUrl: memberLinkUrl(ctx, order),
      }),
    },
  ]
  // Renewals notify too: each is money in, like a first sale.
  if (notify && noticed)
    mails.push({
      to: notify.email,
      dedupeKey: `sale:${order.id}`,
      ...saleNotificationEmail({
        ownerName: notify.name,
        productName,
        amountCents: order.amount_cents,
        buyerName: order.buyer_name,
        buyerEmail: order.buyer_email,
        method: order.payment_method,
        installments: order.installments,
        renewal: renewed,
        orderUrl: `${ctx.config.baseUrl}/dashboard/pedidos/${order.id}`,
      }),
    })
  return mails
}
