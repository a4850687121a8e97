// Refunds (SPEC §7): requested through the API (the money is set aside at once), carried out
// by the worker through the gateway, then completed (order refunded, access revoked, shares
// rejected, money paid out) or failed (everything goes back). Every flow locks the order first.
import type { Deps, Outbox } from '../../deps.ts'
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
import { payRefund, postRefundPaidTwice, releaseRefund, reserveRefund } from '../ledger/sales.ts'
import { lockOrder, markRefunded } from '../orders/service.ts'
import { lockChargeOfOrder, setChargeStatusOfOrder } from '../payments/charges.ts'
import { openCheck } from '../payments/checks.ts'
import { endSubscriptionOfOrder } from '../subscriptions/service.ts'
import { emitEvent } from '../webhooks/service.ts'
import { type RefundRow, refundsRepo as repo } from './repo.ts'
import type { AdminRefundListQuery, AdminRefundOut, RefundListQuery, RefundOut } from './schema.ts'

type Ctx = Outbox
type LogCtx = Outbox & Pick<Deps, 'log'>

export const REFUND_ALREADY_REQUESTED = 'Refund already requested'
export const ORDER_NOT_PAID = 'Order is not paid'
export const REFUND_NOT_FOUND = 'Reembolso não encontrado'
export const REFUND_NOT_PENDING = 'Este reembolso não está mais pendente'
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

/**
 * The gateway returned the money: the order is refunded and its access revoked. A refund we had
 * failed meanwhile (a chargeback came first, or an admin settled it) is recorded as paid twice.
 */
export async function completeRefund(
  tx: Tx,
  ctx: LogCtx,
  refundId: string,
  gatewayRefundId: string | null,
): Promise<boolean> {
  const found = await repo.findById(tx, refundId)
  if (found?.status !== 'pending' && found?.status !== 'failed') return false
  await lockChargeOfOrder(tx, found.order_id)
  if (found.status === 'failed') {
    await recordPaidTwice(tx, ctx, found, { kind: 'refund_completed_late', gatewayRefundId })
    return false
  }
  const order = (await lockOrder(tx, found.order_id))!
  const now = ctx.clock.now()
  const refund = await repo.transition(tx, refundId, 'pending', {
    status: 'completed',
    gateway_refund_id: gatewayRefundId,
    completed_at: now,
    locked_until: null,
    needs_attention_since: null,
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
    needs_attention_since: null,
    updated_at: now,
  })
  if (refund) await announce(tx, ctx, refund)
  return refund
}

/**
 * Failed by something other than the gateway's answer (a chargeback, an admin) after a worker
 * may have asked the gateway already: if the gateway carries the refund out anyway,
 * reconciliation finds it and records it as paid twice.
 */
async function lookUpLater(tx: Tx, ctx: Ctx, refund: RefundRow | undefined) {
  if (refund && refund.attempts > 0) await openCheck(tx, ctx, { id: refund.id, kind: 'refund' })
}

/**
 * A chargeback arrived while a refund was pending: the buyer got the money from the bank, so
 * the refund fails and the money it set aside becomes the chargeback's. Returns its id.
 */
export async function failForChargeback(tx: Tx, ctx: Ctx, orderId: string) {
  const live = await repo.findLive(tx, orderId)
  if (live?.status !== 'pending') return null
  const failed = await markFailed(tx, ctx, live.id, CHARGEBACK_REASON)
  await lookUpLater(tx, ctx, failed)
  return failed?.id ?? null
}

/**
 * The buyer was paid twice for one refund: the gateway completed a refund we had failed
 * (`completed_after_failure_at`), or the bank charged back an order already refunded
 * (`charged_back_at`). Recorded on the refund, flagged for a person, and posted: the platform's
 * cash left again, a receivable to recover by contesting the chargeback with the refund's proof.
 * The caller locked the charge; this locks the order, then the refund (the global lock order).
 */
async function recordPaidTwice(
  tx: Tx,
  ctx: LogCtx,
  refund: RefundRow,
  fact:
    | { kind: 'refund_completed_late'; gatewayRefundId: string | null }
    | { kind: 'refund_charged_back' },
) {
  const order = (await lockOrder(tx, refund.order_id))!
  const now = ctx.clock.now()
  const attention = { needs_attention_since: now, updated_at: now }
  const marked =
    fact.kind === 'refund_completed_late'
      ? await repo.markOnce(tx, refund.id, 'failed', 'completed_after_failure_at', {
          ...attention,
          completed_after_failure_at: now,
          gateway_refund_id: fact.gatewayRefundId,
        })
      : await repo.markOnce(tx, refund.id, 'completed', 'charged_back_at', {
          ...attention,
          charged_back_at: now,
        })
  if (!marked) return false
  await postRefundPaidTwice(tx, ctx, { order, refundId: refund.id, kind: fact.kind })
  ctx.log.warn(
    { refundId: refund.id, orderId: order.id, fact: fact.kind, amountCents: order.amount_cents },
    'the buyer was paid twice for one refund; recorded as a platform receivable',
  )
  return true
}

/** A chargeback of an order already refunded (the caller locked the charge). */
export async function recordChargebackAfterRefund(tx: Tx, ctx: LogCtx, orderId: string) {
  const live = await repo.findLive(tx, orderId)
  if (live?.status !== 'completed') return false
  return recordPaidTwice(tx, ctx, live, { kind: 'refund_charged_back' })
}

export function adminRefundOut(r: RefundRow): AdminRefundOut {
  return {
    ...refundOut(r),
    account_id: r.account_id,
    gateway_refund_id: r.gateway_refund_id,
    attempts: r.attempts,
    last_error: r.last_error,
    needs_attention_since: iso(r.needs_attention_since),
    completed_after_failure_at: iso(r.completed_after_failure_at),
    charged_back_at: iso(r.charged_back_at),
    admin_note: r.admin_note,
  }
}

/** Every account's refunds for the platform admin; `needs_attention` keeps the flagged ones. */
export async function listAllRefunds(db: Executor, query: AdminRefundListQuery) {
  const rows = await repo.listAll(db, { needsAttention: query.needs_attention }, pageWindow(query))
  return toPage(rows, query, adminRefundOut)
}

/**
 * The platform admin settles a pending refund after checking it at the gateway (its answers
 * never reached us), through the same paths as the worker, so the ledger stays exact. A refund
 * settled as failed is still looked up at the gateway once more, in case it completes anyway.
 */
export async function settleRefund(
  tx: Tx,
  ctx: LogCtx,
  input: { refundId: string; status: 'completed' | 'failed'; note: string },
): Promise<AdminRefundOut> {
  const found = await repo.findById(tx, input.refundId)
  if (!found) throw new NotFound(REFUND_NOT_FOUND)
  if (found.status !== 'pending') throw new Conflict(REFUND_NOT_PENDING)
  const settled =
    input.status === 'completed'
      ? await completeRefund(tx, ctx, found.id, null)
      : await failRefund(tx, ctx, found.id, input.note)
  if (!settled) throw new Conflict(REFUND_NOT_PENDING)
  if (input.status === 'failed') await lookUpLater(tx, ctx, found)
  await repo.setAdminNote(tx, found.id, input.note)
  return adminRefundOut((await repo.findById(tx, found.id))!)
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

/**
 * The gateway's answer is unknown: the refund stays pending (its money reserved) and is tried
 * again at `at`; from `attentionAt` on it is also flagged for a person.
 */
export const retryRefundLater = (
  db: Executor,
  id: string,
  retry: { at: Date; error: string; attentionAt: Date | null },
) => repo.retryLater(db, id, retry.at, retry.error, retry.attentionAt)
