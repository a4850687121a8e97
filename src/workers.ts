import type { Deps } from './deps.ts'
import type { Poller } from './kit/jobs.ts'
import { startRateLimitPruner } from './modules/checkout/rate-limit-pruner.ts'
import { startCartRecoveryWorker } from './modules/checkout/recovery.ts'
import { startEmailWorker } from './modules/email/jobs.ts'
import { startExpiryWorker } from './modules/payments/jobs.ts'
import { startReconciliationWorker } from './modules/payments/reconcile.ts'
import { startRefundWorker } from './modules/refunds/jobs.ts'
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
  startRateLimitPruner,
]

export function startWorkers(deps: Deps): Poller {
  const pollers = workerFactories.map((start) => start(deps))
  return {
    kick: () => {
      for (const p of pollers) p.kick()
    },
    stop: async () => {
      await Promise.all(pollers.map((p) => p.stop()))
    },
  }
}
