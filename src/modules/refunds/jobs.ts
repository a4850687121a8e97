// Carries out pending refunds through the gateway: the gateway call runs outside any
// transaction (it is idempotent per refund id), then one transaction records the outcome.
// Claimed with FOR UPDATE SKIP LOCKED under a lease, so any number of workers share the work.
// An unknown answer never fails a refund (the gateway may have paid it): it is looked up and
// retried for as long as it takes, and flagged for a person after ATTENTION_AFTER attempts.
import type { Deps } from '../../deps.ts'
import { withTx } from '../../kit/db.ts'
import { backoffMs, handleDue, startPoller } from '../../kit/jobs.ts'
import type { WorkerFactory } from '../../workers.ts'
import { chargeOfOrder } from '../payments/charges.ts'
import type { CheckVerdict } from '../payments/checks.ts'
import { GatewayRefused, type RefundResult } from '../payments/gateway.ts'
import type { RefundRow } from './repo.ts'
import { completeRefund, failRefund, findRefund, retryRefundLater } from './service.ts'

const BATCH = 10
const LEASE_MS = 60_000
/** The attempts that used to end in `failed`; from then on a person is asked to look too. */
export const ATTENTION_AFTER = 8
const RETRY_BASE_MS = 30_000
const RETRY_MAX_MS = 3_600_000

export async function processRefund(deps: Deps, refundId: string): Promise<void> {
  const refund = await findRefund(deps.db, refundId)
  if (refund?.status !== 'pending') return
  const charge = await chargeOfOrder(deps.db, refund.order_id)
  let result: RefundResult
  try {
    result = charge
      ? await askGateway(deps, refund, charge.gateway_charge_id)
      : { status: 'failed', gatewayRefundId: null, failureReason: 'Cobrança não encontrada' }
  } catch (error) {
    if (error instanceof GatewayRefused) {
      await withTx(deps.db, (tx) => failRefund(tx, deps, refund.id, error.reason))
      return
    }
    const now = deps.clock.now().getTime()
    const flag = refund.attempts >= ATTENTION_AFTER
    if (flag && !refund.needs_attention_since) {
      deps.log.warn({ refundId, attempts: refund.attempts }, 'refund outcome still unknown')
    }
    await retryRefundLater(deps.db, refund.id, {
      at: new Date(now + backoffMs(refund.attempts, RETRY_BASE_MS, RETRY_MAX_MS)),
      error: String(error),
      attentionAt: flag ? new Date(now) : null,
    })
    return
  }
  if (result.status === 'pending') {
    // Accepted and still on its way (a PIX refund in progress): a known state, asked again later.
    const now = deps.clock.now().getTime()
    await retryRefundLater(deps.db, refund.id, {
      at: new Date(now + backoffMs(refund.attempts, RETRY_BASE_MS, RETRY_MAX_MS)),
      error: 'in progress at the gateway',
      attentionAt: null,
    })
    return
  }
  await withTx(deps.db, (tx) =>
    result.status === 'completed'
      ? completeRefund(tx, deps, refund.id, result.gatewayRefundId)
      : failRefund(tx, deps, refund.id, result.failureReason ?? 'Recusado pelo gateway'),
  )
}

/**
 * The first attempt asks for the refund. A later one (an earlier answer never came) first asks
 * the gateway what became of it, and asks for the refund again only when the gateway confirms
 * it has none: some gateways do not deduplicate refunds.
 */
async function askGateway(deps: Deps, refund: RefundRow, gatewayChargeId: string) {
  const ref = { reference: refund.id, gatewayChargeId }
  const known = refund.attempts > 1 ? await deps.gateway.getRefund(ref) : null
  return known ?? deps.gateway.refund({ ...ref, amountCents: refund.amount_cents })
}

/**
 * Reconciliation of a refund failed while a gateway call may have been under way (a chargeback,
 * or an admin, settled it first): did the gateway carry it out anyway?
 */
export async function lookUpFailedRefund(deps: Deps, refundId: string): Promise<CheckVerdict> {
  const refund = await findRefund(deps.db, refundId)
  const charge = refund && (await chargeOfOrder(deps.db, refund.order_id))
  if (refund?.status !== 'failed' || !charge) return { settled: 'nothing to look up' }
  const result = await deps.gateway.getRefund({
    reference: refund.id,
    gatewayChargeId: charge.gateway_charge_id,
  })
  if (result?.status !== 'completed')
    return { settled: `refund at the gateway: ${result?.status ?? 'none'}` }
  await withTx(deps.db, (tx) => completeRefund(tx, deps, refund.id, result.gatewayRefundId))
  return { settled: 'the gateway completed it after it failed here: recorded as paid twice' }
}

/** One pass: claims due refunds and carries each out. */
export const runRefundPass = (deps: Deps) =>
  handleDue(
    deps.db,
    { table: 'refunds', now: deps.clock.now(), limit: BATCH, leaseMs: LEASE_MS },
    (id) => processRefund(deps, id),
  )

export const startRefundWorker: WorkerFactory = (deps) =>
  startPoller({
    name: 'refunds.process',
    intervalMs: deps.config.workerPollMs,
    pass: () => runRefundPass(deps),
    onError: (error) => deps.log.error({ err: error }, 'refund pass failed'),
  })
