// Expires pending orders whose PIX (or boleto) is past its time, a batch per transaction.
// Locks go charge first, then order — the order a gateway callback takes them in — so an
// expiry and a payment arriving at the same instant queue instead of deadlocking.
import { withTx } from '../../kit/db.ts'
import { startPoller } from '../../kit/jobs.ts'
import type { WorkerFactory } from '../../workers.ts'
import { dueForExpiry } from '../orders/service.ts'
import { expireOrder } from './expire.ts'
import { paymentsRepo } from './repo.ts'

const BATCH = 100

export const startExpiryWorker: WorkerFactory = (deps) =>
  startPoller({
    name: 'orders.expire',
    intervalMs: Math.max(deps.config.workerPollMs, 1_000),
    pass: () =>
      withTx(deps.db, async (tx) => {
        const due = await dueForExpiry(tx, deps.clock.now(), BATCH)
        const ids = await paymentsRepo.lockOrdersByCharge(tx, due)
        for (const id of ids) await expireOrder(tx, deps, id)
        return ids.length
      }),
    onError: (error) => deps.log.error({ err: error }, 'order expiry pass failed'),
  })
