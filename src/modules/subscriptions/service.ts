// Subscriptions of recurring products. The first paid order creates one; each later paid order
// of it renews it; the creator or non-payment ends it, and with it the access. Every change is
// a verb taking the caller's transaction. `next_action_at` tells the renewal worker
// (renewals.ts) when to look at the row again.
import type { Deps, Outbox } from '../../deps.ts'
import type { Executor, Tx } from '../../kit/db.ts'
import type { SubscriptionStatus } from '../../kit/db-schema.ts'
import { Conflict, NotFound } from '../../kit/errors.ts'
import { type PageQuery, pageWindow, toPage } from '../../kit/http/pagination.ts'
import { iso } from '../../kit/http/schemas.ts'
import { uuidv7 } from '../../kit/ids.ts'
import { toBrl } from '../../kit/money.ts'
import { revokeOrderAccess } from '../access/service.ts'
import { type findPlanById, findProductById } from '../catalog/service.ts'
import { queueEmail } from '../email/service.ts'
import { subscriptionCanceledEmail } from '../email/templates.ts'
import { findOrder, linkSubscription, lockOrder, type PaidOrder } from '../orders/service.ts'
import { chargeOfOrder, lockChargeOfOrder } from '../payments/charges.ts'
import { expireOrder } from '../payments/expire.ts'
import { emitEvent } from '../webhooks/service.ts'
import { addInterval } from './period.ts'
import { subscriptionsRepo as repo, type SubscriptionRow } from './repo.ts'
import type { SubscriptionOut } from './schema.ts'

type Ctx = Outbox & Pick<Deps, 'config'>
/** A paid order, as markPaid returns it. */
type Order = PaidOrder

export const SUBSCRIPTION_NOT_FOUND = 'Assinatura não encontrada'
export const ALREADY_CANCELED = 'Esta assinatura já foi cancelada'

/**
 * Why a subscription ended: the creator (or the buyer through them), non-payment, or one of
 * its payments refunded or charged back.
 */
export type CancelReason = 'canceled' | 'unpaid' | 'refunded' | 'chargeback'

/**
 * When the worker must next act on an active subscription: at the period end when it renews
 * by card or ends, ahead of it (the notice) when a PIX or boleto charge must be issued.
 */
export function nextRenewalStep(
  ctx: Ctx,
  sub: Pick<
    SubscriptionRow,
    'current_period_end' | 'payment_method' | 'cancel_at_period_end' | 'renewal_order_id'
  >,
): Date {
  const end = sub.current_period_end.getTime()
  const issueAhead =
    sub.payment_method !== 'card' && !sub.cancel_at_period_end && !sub.renewal_order_id
  return new Date(issueAhead ? end - ctx.config.subscriptionRenewalNoticeMs : end)
}

/**
 * Locks a subscription in the global lock order (charge → order → subscription → balance rows),
 * the order a gateway callback takes: its pending renewal order's charge and the order first,
 * then the row. Every flow that may end a subscription (and so expire its renewal order) locks
 * it this way, so a renewal paid at that same instant queues instead of deadlocking. The row is
 * read unlocked first to learn the renewal order; if the worker issued another one meanwhile,
 * that newer order is not locked ahead (it is only expired, never charged, by these flows).
 */
export async function lockSubscription(
  tx: Tx,
  id: string,
  accountId?: string,
): Promise<SubscriptionRow | undefined> {
  const seen = accountId ? await repo.findInAccount(tx, accountId, id) : await repo.find(tx, id)
  if (!seen) return undefined
  if (seen.renewal_order_id) await lockRenewalOrder(tx, seen.renewal_order_id)
  return repo.findForUpdate(tx, seen.id)
}

/** The first two locks of the global order for a renewal order: its charge, then the order. */
export async function lockRenewalOrder(tx: Tx, orderId: string) {
  await lockChargeOfOrder(tx, orderId)
  await lockOrder(tx, orderId)
}

export const graceEnds = (ctx: Ctx, sub: SubscriptionRow) =>
  new Date(sub.current_period_end.getTime() + ctx.config.subscriptionGraceMs)

/**
 * A paid order of a recurring plan: the first creates the subscription, a renewal order extends
 * it by one period. Returns what happened, or null for an order of a one-time plan.
 */
export async function subscriptionPaid(
  tx: Tx,
  ctx: Ctx,
  order: Order,
  /** The order's plan, which the caller read already. */
  plan: Awaited<ReturnType<typeof findPlanById>>,
): Promise<'created' | 'renewed' | null> {
  if (order.subscription_id) {
    await renew(tx, ctx, order)
    return 'renewed'
  }
  if (!plan?.interval) return null
  const now = ctx.clock.now()
  const charge = await chargeOfOrder(tx, order.id)
  const period = {
    payment_method: order.payment_method,
    current_period_end: addInterval(now, plan.interval, plan.interval_count ?? 1),
    cancel_at_period_end: false,
    renewal_order_id: null,
  }
  const sub = await repo.insert(tx, {
    ...period,
    id: uuidv7(now.getTime()),
    account_id: order.account_id,
    product_id: order.product_id,
    plan_id: order.plan_id,
    buyer_id: order.buyer_id,
    buyer_email: order.buyer_email,
    first_order_id: order.id,
    status: 'active',
    card_reference: charge?.saved_card ?? null,
    amount_cents: plan.price_cents,
    interval: plan.interval,
    interval_count: plan.interval_count ?? 1,
    current_period_start: now,
    next_action_at: nextRenewalStep(ctx, period),
    created_at: now,
    updated_at: now,
  })
  await linkSubscription(tx, order.id, sub.id)
  await emitEvent(tx, ctx, {
    accountId: sub.account_id,
    type: 'subscription.created',
    data: { ...eventIds(sub), order_id: order.id, current_period_end: iso(sub.current_period_end) },
  })
  return 'created'
}

/** A renewal order was paid: the next period starts where the last one ended. */
async function renew(tx: Tx, ctx: Ctx, order: Order) {
  const sub = await repo.findForUpdate(tx, order.subscription_id!)
  // Paid after the subscription ended (a late PIX racing the cancellation): the money is a
  // normal sale the creator can refund, but a canceled subscription stays canceled.
  if (!sub || sub.status === 'canceled') return
  const start = sub.current_period_end
  const period = {
    ...sub,
    current_period_end: addInterval(start, sub.interval, sub.interval_count),
    renewal_order_id: null,
  }
  const renewed = await repo.update(tx, sub.id, {
    status: 'active',
    current_period_start: start,
    current_period_end: period.current_period_end,
    renewal_order_id: null,
    past_due_since: null,
    next_action_at: nextRenewalStep(ctx, period),
    updated_at: ctx.clock.now(),
  })
  await emitEvent(tx, ctx, {
    accountId: sub.account_id,
    type: 'subscription.renewed',
    data: {
      ...eventIds(sub),
      order_id: order.id,
      current_period_end: iso(renewed.current_period_end),
    },
  })
}

/** Ends a subscription now: the pending renewal expires, the access goes, the buyer is told. */
export async function endSubscription(
  tx: Tx,
  ctx: Outbox,
  sub: SubscriptionRow,
  reason: CancelReason,
): Promise<SubscriptionRow> {
  const now = ctx.clock.now()
  if (sub.renewal_order_id) await expireOrder(tx, ctx, sub.renewal_order_id)
  const ended = await repo.update(tx, sub.id, {
    status: 'canceled',
    canceled_at: now,
    cancel_reason: reason,
    renewal_order_id: null,
    next_action_at: null,
    updated_at: now,
  })
  await revokeOrderAccess(tx, ctx, { orderId: sub.first_order_id, reason: 'subscription_canceled' })
  await emitEvent(tx, ctx, {
    accountId: sub.account_id,
    type: 'subscription.canceled',
    data: { ...eventIds(sub), reason },
  })
  const [product, order] = await Promise.all([
    findProductById(tx, sub.product_id),
    findOrder(tx, sub.first_order_id),
  ])
  await queueEmail(tx, ctx, {
    to: sub.buyer_email,
    dedupeKey: `subscription-canceled:${sub.id}`,
    ...subscriptionCanceledEmail({
      buyerName: order?.buyer_name ?? '',
      productName: product?.name ?? 'sua assinatura',
      reason,
    }),
  })
  return ended
}

/**
 * A payment of the subscription was refunded or charged back: it ends now, as on Kiwify, so the
 * buyer is never charged again for what they disputed. Call right after the order's own lock.
 */
export async function endSubscriptionOfOrder(
  tx: Tx,
  ctx: Outbox,
  order: Pick<Order, 'subscription_id'>,
  reason: 'refunded' | 'chargeback',
) {
  if (!order.subscription_id) return
  const sub = await lockSubscription(tx, order.subscription_id)
  if (sub && sub.status !== 'canceled') await endSubscription(tx, ctx, sub, reason)
}

/**
 * The creator cancels. By default at the period end, as Stripe does: the buyer keeps what they
 * paid for, no renewal is charged, and the worker ends it then. `immediately` (or a subscription
 * already past due) ends it now.
 */
export async function cancelSubscription(
  tx: Tx,
  ctx: Ctx,
  accountId: string,
  id: string,
  opts: { immediately: boolean },
): Promise<SubscriptionOut> {
  const sub = await lockSubscription(tx, id, accountId)
  if (!sub) throw new NotFound(SUBSCRIPTION_NOT_FOUND)
  if (sub.status === 'canceled') throw new Conflict(ALREADY_CANCELED)
  if (opts.immediately || sub.status === 'past_due') {
    return subscriptionOut(await endSubscription(tx, ctx, sub, 'canceled'))
  }
  if (sub.renewal_order_id) await expireOrder(tx, ctx, sub.renewal_order_id)
  const marked = await repo.update(tx, sub.id, {
    cancel_at_period_end: true,
    renewal_order_id: null,
    next_action_at: sub.current_period_end,
    updated_at: ctx.clock.now(),
  })
  return subscriptionOut(marked)
}

export async function listSubscriptions(
  db: Executor,
  accountId: string,
  query: PageQuery & { status?: SubscriptionStatus | undefined; product_id?: string | undefined },
) {
  const rows = await repo.list(db, accountId, query, pageWindow(query))
  return toPage(rows, query, subscriptionOut)
}

export async function getSubscription(db: Executor, accountId: string, id: string) {
  const sub = await repo.findInAccount(db, accountId, id)
  if (!sub) throw new NotFound(SUBSCRIPTION_NOT_FOUND)
  return subscriptionOut(sub)
}

export function subscriptionOut(sub: SubscriptionRow): SubscriptionOut {
  return {
    id: sub.id,
    status: sub.status,
    product_id: sub.product_id,
    plan_id: sub.plan_id,
    buyer_id: sub.buyer_id,
    buyer_email: sub.buyer_email,
    payment_method: sub.payment_method,
    amount: toBrl(sub.amount_cents),
    currency: 'BRL',
    interval: sub.interval,
    interval_count: sub.interval_count,
    current_period_start: iso(sub.current_period_start)!,
    current_period_end: iso(sub.current_period_end)!,
    cancel_at_period_end: sub.cancel_at_period_end,
    past_due_since: iso(sub.past_due_since),
    canceled_at: iso(sub.canceled_at),
    cancel_reason: sub.cancel_reason as CancelReason | null,
    first_order_id: sub.first_order_id,
    created_at: iso(sub.created_at)!,
  }
}

/** The ids every `subscription.*` event carries. */
export const eventIds = (sub: SubscriptionRow) => ({
  subscription_id: sub.id,
  product_id: sub.product_id,
  plan_id: sub.plan_id,
  buyer_id: sub.buyer_id,
})
