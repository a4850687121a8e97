// Expires pending orders whose PIX (or boleto) is past its time, a batch per transaction.
import { withTx } from '../../kit/db.ts'
import { startPoller } from '../../kit/jobs.ts'
import type { WorkerFactory } from '../../workers.ts'
import { lockDueForExpiry } from '../orders/service.ts'
import { expireOrder } from './expire.ts'

const BATCH = 100

export const startExpiryWorker: WorkerFactory = (deps) =>
  startPoller({
    name: 'orders.expire',
    intervalMs: Math.max(deps.config.workerPollMs, 1_000),
    pass: () =>
      withTx(deps.db, async (tx) => {
        const ids = await lockDueForExpiry(tx, deps.clock.now(), BATCH)
        for (const id of ids) await expireOrder(tx, deps, id)
        return ids.length
      }),
    onError: (error) => deps.log.error({ err: error }, 'order expiry pass failed'),
  })
