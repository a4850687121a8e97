import type { Deps } from './deps.ts'
import { startIdempotencyPruner } from './kit/http/idempotency-pruner.ts'
import type { Poller } from './kit/jobs.ts'
import { startRateLimitPruner } from './modules/checkout/rate-limit-pruner.ts'
import { startCartRecoveryWorker } from './modules/checkout/recovery.ts'
import { startEmailWorker } from './modules/email/jobs.ts'
import { startExpiryWorker } from './modules/payments/jobs.ts'
import { startReconciliationWorker } from './modules/payments/reconcile.ts'
import { startRefundWorker } from './modules/refunds/jobs.ts'
import { startSaleSummaryWorker } from './modules/sale-notices/jobs.ts'
import { startRenewalWorker } from './modules/subscriptions/renewals.ts'
import { startWebhookWorker } from './modules/webhooks/jobs.ts'

export type WorkerFactory = (deps: Deps) => Poller

/** Every background loop of the service; each module contributes its own. */
export const workerFactories: WorkerFactory[] = [
  startWebhookWorker,
  startEmailWorker,
  startExpiryWorker,
  startCartRecoveryWorker,
  startRefundWorker,
  startReconciliationWorker,
  startRenewalWorker,
  startSaleSummaryWorker,
  startRateLimitPruner,
  startIdempotencyPruner,
]

/** The running background loops of one process. */
export interface Workers {
  kick(): void
  /**
   * One pass of the worker named (e.g. `orders.expire`), or of every worker side by side;
   * resolves when the passes have ended with what they found. Work one worker leaves for
   * another (a mail queued by a renewal) waits for that worker's next pass.
   */
  runOnce(name?: string): Promise<number>
  stop(): Promise<void>
}

export function startWorkers(deps: Deps): Workers {
  const pollers = workerFactories.map((start) => start(deps))
  return {
    kick: () => {
      for (const p of pollers) p.kick()
    },
    async runOnce(name) {
      if (name === undefined) {
        const found = await Promise.all(pollers.map((p) => p.runOnce()))
        return found.reduce((a, b) => a + b, 0)
      }
      const poller = pollers.find((p) => p.name === name)
      if (!poller) throw new Error(`no worker named ${name}`)
      return poller.runOnce()
    },
    stop: async () => {
      await Promise.all(pollers.map((p) => p.stop()))
    },
  }
}
