// Carries out pending refunds through the gateway: the gateway call runs outside any
// transaction (it is idempotent per refund id), then one transaction records the outcome.
// Claimed with FOR UPDATE SKIP LOCKED under a lease, so any number of workers share the work.
import type { Deps } from '../../deps.ts'
import { withTx } from '../../kit/db.ts'
import { claimDue, startPoller } from '../../kit/jobs.ts'
import type { WorkerFactory } from '../../workers.ts'
import { chargeOfOrder } from '../payments/charges.ts'
import type { RefundResult } from '../payments/gateway.ts'
import { completeRefund, failRefund, findRefund, retryRefundLater } from './service.ts'

const BATCH = 10
const LEASE_MS = 60_000
const MAX_ATTEMPTS = 8
const RETRY_BASE_MS = 30_000
const RETRY_MAX_MS = 3_600_000

export async function processRefund(deps: Deps, refundId: string): Promise<void> {
  const refund = await findRefund(deps.db, refundId)
  if (refund?.status !== 'pending') return
  const charge = await chargeOfOrder(deps.db, refund.order_id)
  let result: RefundResult
  try {
    result = charge
      ? await deps.gateway.refund({
          reference: refund.id,
          gatewayChargeId: charge.gateway_charge_id,
          amountCents: refund.amount_cents,
        })
      : { status: 'failed', gatewayRefundId: null, failureReason: 'Cobrança não encontrada' }
  } catch (error) {
    // The gateway's answer is unknown: ask again later with the same reference.
    if (refund.attempts < MAX_ATTEMPTS) {
      const wait = Math.min(RETRY_BASE_MS * 2 ** Math.max(0, refund.attempts - 1), RETRY_MAX_MS)
      const at = new Date(deps.clock.now().getTime() + wait)
      await retryRefundLater(deps.db, refund.id, at, String(error))
      return
    }
    result = { status: 'failed', gatewayRefundId: null, failureReason: 'Gateway indisponível' }
  }
  await withTx(deps.db, (tx) =>
    result.status === 'completed'
      ? completeRefund(tx, deps, refund.id, result.gatewayRefundId)
      : failRefund(tx, deps, refund.id, result.failureReason ?? 'Recusado pelo gateway'),
  )
}

export const startRefundWorker: WorkerFactory = (deps) =>
  startPoller({
    name: 'refunds.process',
    intervalMs: deps.config.workerPollMs,
    pass: async () => {
      const ids = await claimDue(deps.db, {
        table: 'refunds',
        now: deps.clock.now(),
        limit: BATCH,
        leaseMs: LEASE_MS,
      })
      for (const id of ids) await processRefund(deps, id)
      return ids.length
    },
    onError: (error) => deps.log.error({ err: error }, 'refund pass failed'),
  })
