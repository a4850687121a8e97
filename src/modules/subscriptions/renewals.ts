// The renewal worker. At each subscription's `next_action_at` it takes one step: issue the
// renewal order (PIX/boleto a notice ahead of the period end, card at the end), mark the
// subscription past due when the period ended unpaid, or end it (creator's cancellation at the
// period end, or unpaid after the grace period). Gateway charges happen outside transactions:
// the order is written first with a short lease, charged, then the charge recorded; a crash in
// between leaves an order without a charge that the next step charges again (the gateway is
// idempotent per order id, so a card is never charged twice).
import type { Deps } from '../../deps.ts'
import { type Tx, withTx } from '../../kit/db.ts'
import { uuidv7 } from '../../kit/ids.ts'
import { startPoller } from '../../kit/jobs.ts'
import { toBrl } from '../../kit/money.ts'
import type { WorkerFactory } from '../../workers.ts'
import { memberLinkUrl } from '../accounts/member-links.ts'
import { findProductById } from '../catalog/service.ts'
import { queueEmail } from '../email/service.ts'
import { renewalChargeEmail, subscriptionPastDueEmail } from '../email/templates.ts'
import { cancelShares, commissionFields, planShares, recordShares } from '../ledger/shares.ts'
import { createOrder, findOrder, lockOrder, markFailed } from '../orders/service.ts'
import { followCharge } from '../payments/charge-lookups.ts'
import { chargeOfOrder } from '../payments/charges.ts'
import { confirmPayment } from '../payments/confirm.ts'
import { type GatewayCharge, GatewayRefused } from '../payments/gateway.ts'
import { dropCharge } from '../payments/order-charge.ts'
import { recordCharge } from '../payments/service.ts'
import { emitEvent } from '../webhooks/service.ts'
import { subscriptionsRepo as repo, type SubscriptionRow } from './repo.ts'
import { endSubscription, eventIds, graceEnds, lockRenewalOrder } from './service.ts'

const BATCH = 20
/** How long an issued renewal order waits for its charge before the worker charges it again. */
const CHARGE_LEASE_MS = 60_000
/** A declined renewal card is tried again once a day until the grace period ends. */
const CARD_RETRY_MS = 86_400_000

export async function runDueRenewals(deps: Deps): Promise<number> {
  const { stepped, toCharge } = await issueDueRenewals(deps)
  for (const orderId of toCharge) {
    try {
      await chargeRenewal(deps, orderId)
    } catch (error) {
      // The lease brings it back; one failing charge must not hold up the others.
      deps.log.error({ err: error, orderId }, 'renewal charge failed')
    }
  }
  return stepped
}

/**
 * Takes one step for each due subscription, each in its own transaction; returns the renewal
 * orders to charge. Locks follow the global order (charge → order → subscription): the row is
 * read unlocked, its renewal order's charge and the order are locked, then the row itself; a row
 * another worker holds is skipped, one that changed meanwhile is left for the next pass.
 * Returns how many subscriptions took a step and the renewal orders to charge.
 */
export async function issueDueRenewals(deps: Deps) {
  const due = await repo.findDue(deps.db, deps.clock.now(), BATCH)
  let stepped = 0
  const toCharge: string[] = []
  for (const seen of due) {
    const result = await withTx(deps.db, async (tx) => {
      if (seen.renewal_order_id) await lockRenewalOrder(tx, seen.renewal_order_id)
      const sub = await repo.lockIfDue(tx, seen.id, deps.clock.now())
      if (!sub || sub.renewal_order_id !== seen.renewal_order_id) return null
      return { orderId: await step(tx, deps, sub) }
    })
    if (!result) continue
    stepped++
    if (result.orderId) toCharge.push(result.orderId)
  }
  return { stepped, toCharge }
}

/** One step of a due subscription; returns a renewal order to charge, if any. */
async function step(tx: Tx, deps: Deps, sub: SubscriptionRow): Promise<string | null> {
  const now = deps.clock.now()
  const periodEnded = now >= sub.current_period_end
  if (sub.status === 'active' && sub.cancel_at_period_end && periodEnded) {
    await endSubscription(tx, deps, sub, 'canceled')
    return null
  }
  if (sub.status === 'past_due' && now >= graceEnds(deps, sub)) {
    await endSubscription(tx, deps, sub, 'unpaid')
    return null
  }
  const renewal = sub.renewal_order_id ? await findOrder(tx, sub.renewal_order_id) : null
  if (renewal?.status === 'pending') {
    if (!(await chargeOfOrder(tx, renewal.id))) {
      await repo.update(tx, sub.id, { next_action_at: new Date(now.getTime() + CHARGE_LEASE_MS) })
      return renewal.id
    }
    if (sub.status === 'active' && periodEnded) {
      await markPastDue(tx, deps, sub, renewal.id)
    } else {
      await repo.update(tx, sub.id, { next_action_at: nextCheck(deps, sub) })
    }
    return null
  }
  // No live renewal order (none yet, or the last one expired or was declined): issue one.
  const order = await issueRenewalOrder(tx, deps, sub)
  await repo.update(tx, sub.id, {
    renewal_order_id: order.id,
    next_action_at: new Date(now.getTime() + CHARGE_LEASE_MS),
    updated_at: now,
  })
  return order.id
}

/** When to look again at a subscription whose renewal is issued and awaits payment. */
const nextCheck = (deps: Deps, sub: SubscriptionRow) =>
  sub.status === 'active' ? sub.current_period_end : graceEnds(deps, sub)

async function issueRenewalOrder(tx: Tx, deps: Deps, sub: SubscriptionRow) {
  const first = (await findOrder(tx, sub.first_order_id))!
  const now = deps.clock.now()
  const shares = await planShares(tx, {
    productId: sub.product_id,
    amountCents: sub.amount_cents,
    affiliateId: first.affiliate_id,
    buyerId: sub.buyer_id,
  })
  const order = await createOrder(tx, {
    id: uuidv7(now.getTime()),
    account_id: sub.account_id,
    product_id: sub.product_id,
    plan_id: sub.plan_id,
    buyer_id: sub.buyer_id,
    buyer_email: sub.buyer_email,
    buyer_name: first.buyer_name,
    buyer_document: first.buyer_document,
    buyer_phone: first.buyer_phone,
    status: 'pending',
    amount_cents: sub.amount_cents,
    payment_method: sub.payment_method,
    subscription_id: sub.id,
    // Payable until the subscription would be canceled for it.
    expires_at: graceEnds(deps, sub),
    created_at: now,
    updated_at: now,
    ...commissionFields(shares),
  })
  await recordShares(tx, deps, order, shares)
  await emitEvent(tx, deps, {
    accountId: sub.account_id,
    type: 'order.created',
    data: {
      order_id: order.id,
      amount: toBrl(order.amount_cents),
      product_id: sub.product_id,
      buyer_email: sub.buyer_email,
      subscription_id: sub.id,
    },
  })
  return order
}

/**
 * Charges an issued renewal order through the gateway, then records what it answered. An order
 * no longer due (the subscription was canceled, or another worker got it paid) is not charged;
 * a charge the gateway made while the subscription was being canceled is canceled (a card
 * voided, a PIX or boleto withdrawn) at the gateway.
 */
export async function chargeRenewal(deps: Deps, orderId: string) {
  const order = (await findOrder(deps.db, orderId))!
  const sub = (await repo.find(deps.db, order.subscription_id!))!
  if (order.status !== 'pending' || sub.renewal_order_id !== order.id) return
  if (await chargeOfOrder(deps.db, order.id)) return
  const product = await findProductById(deps.db, order.product_id)
  let charge: GatewayCharge
  try {
    charge = await deps.gateway.createCharge({
      reference: order.id,
      method: order.payment_method,
      amountCents: order.amount_cents,
      description: product?.name ?? 'Assinatura',
      buyer: {
        name: order.buyer_name,
        email: order.buyer_email,
        document: order.buyer_document,
        phone: order.buyer_phone,
      },
      expiresAt: order.expires_at!,
      savedCard: sub.card_reference ?? undefined,
      // The buyer's, from the first order: card gateways refuse the server's own address.
      remoteIp: (await findOrder(deps.db, sub.first_order_id))?.buyer_ip ?? undefined,
    })
  } catch (error) {
    if (!(error instanceof GatewayRefused)) throw error
    // The gateway did nothing and said why (a card it will not charge, a document it refuses):
    // the renewal fails like a declined card, tried again the next day, never in a loop.
    deps.log.warn({ orderId, reason: error.reason }, 'renewal charge refused by the gateway')
    await withTx(deps.db, async (tx) => {
      const current = (await lockOrder(tx, order.id))!
      const locked = (await repo.findForUpdate(tx, sub.id))!
      if (locked.renewal_order_id !== order.id || current.status !== 'pending') return
      await cardDeclined(tx, deps, locked, order.id)
    })
    return
  }
  const recorded = await withTx(deps.db, async (tx) => {
    // The order before the subscription: the global lock order (no charge row exists yet).
    const current = (await lockOrder(tx, order.id))!
    const locked = (await repo.findForUpdate(tx, sub.id))!
    // Another worker recorded it (its lease ran out while we waited on the gateway).
    if (await chargeOfOrder(tx, order.id)) return true
    // Canceled while the gateway answered: the order expired, nothing may be recorded for it.
    if (locked.renewal_order_id !== order.id || current.status !== 'pending') return false
    const row = await recordCharge(tx, deps, {
      orderId: order.id,
      gateway: deps.gateway.name,
      charge,
      method: order.payment_method,
      amountCents: order.amount_cents,
    })
    if (charge.status === 'paid') {
      await confirmPayment(tx, deps, order.id)
    } else if (charge.status !== 'pending') {
      // Declined (or already closed at the gateway): this order will not be paid.
      await cardDeclined(tx, deps, locked, order.id)
    } else {
      // Its callback may be lost: the charge is looked up at the gateway until paid or expired.
      await followCharge(tx, deps, { orderId: order.id, charge: row, expiresAt: order.expires_at })
      await repo.update(tx, sub.id, { next_action_at: nextCheck(deps, locked) })
      await queueEmail(tx, deps, {
        to: order.buyer_email,
        dedupeKey: `renewal:${order.id}`,
        ...renewalChargeEmail({
          buyerName: order.buyer_name,
          productName: product?.name ?? 'sua assinatura',
          amountCents: order.amount_cents,
          periodEnd: locked.current_period_end,
          pixCopyPaste: charge.pix?.copyPaste ?? null,
          boleto: boletoOf(charge),
          membersUrl: memberLinkUrl(deps, order),
        }),
      })
    }
    return true
  })
  if (!recorded && (charge.status === 'paid' || charge.status === 'pending')) {
    // A charge for an order that can no longer be paid: canceled (a paid card voided) at the
    // gateway; if that answer is lost too, the order's check makes reconciliation retry it.
    await dropCharge(deps, { reference: order.id, gatewayChargeId: charge.gatewayChargeId })
  }
}

const boletoOf = (charge: GatewayCharge) =>
  charge.boleto && { digitableLine: charge.boleto.digitableLine, dueDate: charge.boleto.dueDate }

/**
 * A declined renewal card (or a renewal charge the gateway refused): the order fails, the
 * subscription is past due, retried daily.
 */
async function cardDeclined(tx: Tx, deps: Deps, sub: SubscriptionRow, orderId: string) {
  const now = deps.clock.now()
  const order = await markFailed(tx, orderId, now)
  if (order) await cancelShares(tx, deps, order)
  if (sub.status === 'active') await markPastDue(tx, deps, sub, orderId)
  const retryAt = Math.min(now.getTime() + CARD_RETRY_MS, graceEnds(deps, sub).getTime())
  await repo.update(tx, sub.id, { renewal_order_id: null, next_action_at: new Date(retryAt) })
}

/** The period ended unpaid: past due until the grace period ends; the buyer is told. */
async function markPastDue(tx: Tx, deps: Deps, sub: SubscriptionRow, orderId: string) {
  const now = deps.clock.now()
  await repo.update(tx, sub.id, {
    status: 'past_due',
    past_due_since: now,
    next_action_at: graceEnds(deps, sub),
    updated_at: now,
  })
  await emitEvent(tx, deps, {
    accountId: sub.account_id,
    type: 'subscription.past_due',
    data: { ...eventIds(sub), order_id: orderId },
  })
  const [product, order] = await Promise.all([
    findProductById(tx, sub.product_id),
    findOrder(tx, orderId),
  ])
  await queueEmail(tx, deps, {
    to: sub.buyer_email,
    dedupeKey: `past-due:${sub.id}:${sub.current_period_end.toISOString()}`,
    ...subscriptionPastDueEmail({
      buyerName: order?.buyer_name ?? '',
      productName: product?.name ?? 'sua assinatura',
      byCard: sub.payment_method === 'card',
      cancelsAt: graceEnds(deps, sub),
    }),
  })
}

export const startRenewalWorker: WorkerFactory = (deps) =>
  startPoller({
    name: 'subscriptions.renew',
    intervalMs: Math.max(deps.config.workerPollMs, 1_000),
    pass: () => runDueRenewals(deps),
    onError: (error) => deps.log.error({ err: error }, 'subscription renewal pass failed'),
  })
