// The reconciliation worker: settles the gateway checks (checks.ts) that nobody settled in
// time by looking our reference up at the gateway: an order's charge (one whose answer never
// came, or a pending PIX or boleto whose callback may be lost: charge-lookups.ts), a refund
// failed while its outcome was unknown, a withdrawal's PIX transfer. Claimed with FOR UPDATE SKIP LOCKED under a
// lease, so any number of worker processes share the work; each look is idempotent, so a look
// repeated after a crash changes nothing. An unknown answer is looked up again with doubling
// waits (at most hourly) for as long as it takes, and logged for a person after a while; a
// known refusal (GatewayRefused) is never asked again: the check settles with the gateway's
// reason, logged for a person.
import type { Deps } from '../../deps.ts'
import { withTx } from '../../kit/db.ts'
import type { GatewayCheckKind } from '../../kit/db-schema.ts'
import { backoffMs, handleDue, startPoller } from '../../kit/jobs.ts'
import type { WorkerFactory } from '../../workers.ts'
import { reconcileTransfer } from '../payouts/withdrawals.ts'
import { lookUpFailedRefund } from '../refunds/jobs.ts'
import { lookUpPendingCharge } from './charge-lookups.ts'
import { chargeOfOrder } from './charges.ts'
import { type CheckVerdict, settleCheck } from './checks.ts'
import { GatewayRefused } from './gateway.ts'
import { failUnchargedOrder, recordOrderCharge } from './order-charge.ts'
import { paymentsRepo as repo } from './repo.ts'

const BATCH = 20
const LEASE_MS = 60_000
const RETRY_BASE_MS = 30_000
const RETRY_MAX_MS = 3_600_000
const ATTENTION_AFTER = 8
/** After a look found no charge: one more, for a charge created after it (a late request). */
const SECOND_LOOK_MS = 3_600_000

const LOOKUPS: Record<GatewayCheckKind, (deps: Deps, id: string) => Promise<CheckVerdict>> = {
  charge: reconcileCharge,
  refund: lookUpFailedRefund,
  transfer: reconcileTransfer,
}

/**
 * An order's charge. Recorded and the order still pending: looked up until paid or expired
 * (charge-lookups.ts). Not recorded (its answer never reached us), the order pending: the
 * gateway's charge is recorded and the order follows it (paid, failed, pending); with no charge
 * at the gateway the order fails and its coupon goes back. No longer pending: a charge the
 * gateway holds for it is canceled.
 */
export async function reconcileCharge(deps: Deps, orderId: string): Promise<CheckVerdict> {
  const known = await chargeOfOrder(deps.db, orderId)
  if (known) return lookUpPendingCharge(deps, orderId, known)
  const found = await deps.gateway.getCharge(orderId)
  if (!found) {
    const failed = await withTx(deps.db, (tx) => failUnchargedOrder(tx, deps, orderId))
    if (!failed) return { settled: 'no charge at the gateway' }
    const again = new Date(deps.clock.now().getTime() + SECOND_LOOK_MS)
    return { again, note: 'no charge at the gateway: order failed; one more look later' }
  }
  const outcome = await withTx(deps.db, (tx) =>
    recordOrderCharge(tx, deps, { orderId, gateway: deps.gateway.name, charge: found }),
  )
  if (outcome.kind === 'recorded') {
    if (outcome.lookAt) return { again: outcome.lookAt, note: 'charge recorded (pending)' }
    return { settled: `charge recorded (${found.status})` }
  }
  if (found.status !== 'pending' && found.status !== 'paid') {
    return { settled: `charge ${found.status} at the gateway: nothing to cancel` }
  }
  const ref = { reference: orderId, gatewayChargeId: found.gatewayChargeId }
  const closed = await deps.gateway.cancelCharge(ref)
  deps.log.warn({ ...ref, status: closed }, 'charge without an order canceled by reconciliation')
  return { settled: `charge without an order canceled (${closed})` }
}

async function reconcile(deps: Deps, id: string) {
  const check = await repo.findCheck(deps.db, id)
  if (check?.status !== 'pending') return
  let verdict: CheckVerdict
  try {
    verdict = await LOOKUPS[check.kind](deps, id)
  } catch (error) {
    if (error instanceof GatewayRefused) {
      deps.log.error({ id, kind: check.kind, reason: error.reason }, 'gateway refused a look-up')
      await settleCheck(deps.db, deps, id, `refused by the gateway: ${error.reason}`)
      return
    }
    if (check.attempts === ATTENTION_AFTER) {
      deps.log.error({ err: error, id, kind: check.kind }, 'gateway answer still unknown')
    }
    const wait = backoffMs(check.attempts, RETRY_BASE_MS, RETRY_MAX_MS)
    const at = new Date(deps.clock.now().getTime() + wait)
    await repo.checkAgainAt(deps.db, id, at, { error: String(error) })
    return
  }
  if ('settled' in verdict) await settleCheck(deps.db, deps, id, verdict.settled)
  else await repo.checkAgainAt(deps.db, id, verdict.again, { note: verdict.note })
}

/** One pass: claims the due checks and looks each up. */
export const runReconciliation = (deps: Deps) =>
  handleDue(
    deps.db,
    { table: 'gateway_checks', now: deps.clock.now(), limit: BATCH, leaseMs: LEASE_MS },
    (id) => reconcile(deps, id),
  )

export const startReconciliationWorker: WorkerFactory = (deps) =>
  startPoller({
    name: 'payments.reconcile',
    intervalMs: Math.max(deps.config.workerPollMs, 1_000),
    pass: () => runReconciliation(deps),
    onError: (error) => deps.log.error({ err: error }, 'reconciliation pass failed'),
  })
