// Refunds (SPEC §7): requested through the API (the money is set aside at once), carried out
// by the worker through the gateway, then completed (order refunded, access revoked, shares
// rejected, money paid out) or failed (everything goes back). Every flow locks the order first.
import type { Deps } from '../../deps.ts'
import type { Executor, Tx } from '../../kit/db.ts'
import { BadRequest, Conflict, NotFound } from '../../kit/errors.ts'
import { pageWindow, toPage } from '../../kit/http/pagination.ts'
import { iso } from '../../kit/http/schemas.ts'
import { uuidv7 } from '../../kit/ids.ts'
import { toBrl } from '../../kit/money.ts'
import { revokeOrderAccess } from '../access/service.ts'
import { findProductById } from '../catalog/service.ts'
import { queueEmail } from '../email/service.ts'
import { refundCompletedEmail } from '../email/templates.ts'
import { payRefund, releaseRefund, reserveRefund } from '../ledger/sales.ts'
import { lockOrder, markRefunded } from '../orders/service.ts'
import { lockChargeOfOrder, setChargeStatusOfOrder } from '../payments/charges.ts'
import { endSubscriptionOfOrder } from '../subscriptions/service.ts'
import { emitEvent } from '../webhooks/service.ts'
import { type RefundRow, refundsRepo as repo } from './repo.ts'
import type { RefundListQuery, RefundOut } from './schema.ts'

type Ctx = Pick<Deps, 'clock'>

export const REFUND_ALREADY_REQUESTED = 'Refund already requested'
export const ORDER_NOT_PAID = 'Order is not paid'
export const REFUND_NOT_FOUND = 'Reembolso não encontrado'
export const CHARGEBACK_REASON = 'O comprador contestou a compra no banco (chargeback)'

export function refundOut(r: RefundRow): RefundOut {
  return {
    id: r.id,
    status: r.status,
    created_at: iso(r.created_at)!,
    order_id: r.order_id,
    amount: toBrl(r.amount_cents),
    reason: r.reason,
    failure_reason: r.failure_reason,
    completed_at: iso(r.completed_at),
    failed_at: iso(r.failed_at),
  }
}

/** `refund.requested` at creation and at each status change (SPEC §7). */
function announce(tx: Tx, ctx: Ctx, r: RefundRow) {
  return emitEvent(tx, ctx, {
    accountId: r.account_id,
    type: 'refund.requested',
    data: {
      refund_id: r.id,
      order_id: r.order_id,
      amount: toBrl(r.amount_cents),
      reason: r.reason,
      status: r.status,
    },
  })
}

/** 409 when a refund is pending or done (checked first), 400 when the order is not paid. */
export async function requestRefund(
  tx: Tx,
  ctx: Ctx,
  actor: { accountId: string; userId: string },
  orderId: string,
  reason: string,
): Promise<RefundOut> {
  const order = await lockOrder(tx, orderId, actor.accountId)
  if (!order) throw new NotFound('Pedido não encontrado')
  if (await repo.findLive(tx, order.id)) throw new Conflict(REFUND_ALREADY_REQUESTED)
  if (order.status !== 'paid') throw new BadRequest(ORDER_NOT_PAID)
  const now = ctx.clock.now()
  const refund = await repo.insert(tx, {
    id: uuidv7(now.getTime()),
    account_id: order.account_id,
    order_id: order.id,
    requested_by: actor.userId,
    amount_cents: order.amount_cents,
    reason,
    status: 'pending',
    next_attempt_at: now,
    created_at: now,
    updated_at: now,
  })
  if (!refund) throw new Conflict(REFUND_ALREADY_REQUESTED)
  await reserveRefund(tx, ctx, { order, refundId: refund.id })
  await announce(tx, ctx, refund)
  return refundOut(refund)
}

/** The gateway returned the money: the order is refunded and its access revoked. */
export async function completeRefund(
  tx: Tx,
  ctx: Ctx,
  refundId: string,
  gatewayRefundId: string | null,
): Promise<boolean> {
  const pending = await repo.findById(tx, refundId)
  if (pending?.status !== 'pending') return false
  await lockChargeOfOrder(tx, pending.order_id)
  const order = (await lockOrder(tx, pending.order_id))!
  const now = ctx.clock.now()
  const refund = await repo.transition(tx, refundId, 'pending', {
    status: 'completed',
    gateway_refund_id: gatewayRefundId,
    completed_at: now,
    locked_until: null,
    updated_at: now,
  })
  if (!refund) return false
  await markRefunded(tx, order.id, now)
  await endSubscriptionOfOrder(tx, ctx, order, 'refunded')
  await setChargeStatusOfOrder(tx, order.id, 'refunded')
  await payRefund(tx, ctx, { order, refundId })
  await revokeOrderAccess(tx, ctx, { orderId: order.id, reason: 'refund' })
  await announce(tx, ctx, refund)
  await emitEvent(tx, ctx, {
    accountId: order.account_id,
    type: 'order.refunded',
    data: {
      order_id: order.id,
      refund_id: refund.id,
      amount: toBrl(refund.amount_cents),
      product_id: order.product_id,
      buyer_email: order.buyer_email,
    },
  })
  const product = await findProductById(tx, order.product_id)
  await queueEmail(tx, ctx, {
    to: order.buyer_email,
    dedupeKey: `refund:${refund.id}`,
    ...refundCompletedEmail({
      buyerName: order.buyer_name,
      productName: product?.name ?? 'seu produto',
      amountCents: refund.amount_cents,
      orderId: order.id,
    }),
  })
  return true
}

/** The gateway refused: the money set aside goes back to everyone; the order stays paid. */
export async function failRefund(
  tx: Tx,
  ctx: Ctx,
  refundId: string,
  failureReason: string,
): Promise<boolean> {
  const pending = await repo.findById(tx, refundId)
  if (pending?.status !== 'pending') return false
  const order = (await lockOrder(tx, pending.order_id))!
  const refund = await markFailed(tx, ctx, refundId, failureReason)
  if (!refund) return false
  await releaseRefund(tx, ctx, { order, refundId })
  return true
}

async function markFailed(tx: Tx, ctx: Ctx, refundId: string, failureReason: string) {
  const now = ctx.clock.now()
  const refund = await repo.transition(tx, refundId, 'pending', {
    status: 'failed',
    failure_reason: failureReason,
    failed_at: now,
    locked_until: null,
    updated_at: now,
  })
  if (refund) await announce(tx, ctx, refund)
  return refund
}

/**
 * A chargeback arrived while a refund was pending: the buyer got the money from the bank, so
 * the refund fails and the money it set aside becomes the chargeback's. Returns its id.
 */
export async function failForChargeback(tx: Tx, ctx: Ctx, orderId: string) {
  const live = await repo.findLive(tx, orderId)
  if (live?.status !== 'pending') return null
  return (await markFailed(tx, ctx, live.id, CHARGEBACK_REASON))?.id ?? null
}

export async function listRefunds(db: Executor, accountId: string, query: RefundListQuery) {
  const rows = await repo.list(db, accountId, query, pageWindow(query))
  return toPage(rows, query, refundOut)
}

export async function getRefund(db: Executor, accountId: string, id: string) {
  const row = await repo.findInAccount(db, accountId, id)
  if (!row) throw new NotFound(REFUND_NOT_FOUND)
  return refundOut(row)
}

export const findRefund = (db: Executor, id: string) => repo.findById(db, id)
export const retryRefundLater = (db: Executor, id: string, at: Date, error: string) =>
  repo.retryLater(db, id, at, error)
