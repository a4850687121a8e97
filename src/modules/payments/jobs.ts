// Expires pending orders whose PIX (or boleto) is past its time. An order with a charge at the
// gateway is never expired unasked: its gateway check looks the charge up first (paid → the
// order is confirmed; still pending → canceled at the gateway, then expired; charge-lookups.ts),
// in this same pass. An order without a charge (its answer never came) expires at once, and its
// check later cancels any charge the gateway turns out to hold (expire.ts).
// Locks go charge first, then order — the order a gateway callback takes them in — so an
// expiry and a payment arriving at the same instant queue instead of deadlocking.
import type { Deps } from '../../deps.ts'
import { withTx } from '../../kit/db.ts'
import { startPoller } from '../../kit/jobs.ts'
import type { WorkerFactory } from '../../workers.ts'
import { expireOrder } from './expire.ts'
import { runReconciliation } from './reconcile.ts'
import { paymentsRepo } from './repo.ts'

const BATCH = 100

export async function runExpiry(deps: Deps): Promise<number> {
  const now = deps.clock.now()
  const { expired, toLookUp } = await withTx(deps.db, async (tx) => {
    const due = await paymentsRepo.dueForExpiry(tx, now, BATCH)
    const ids = await paymentsRepo.lockOrdersByCharge(tx, due)
    const toLookUp: string[] = []
    let expired = 0
    for (const id of ids) {
      const charge = await paymentsRepo.latestChargeOf(tx, id)
      if (charge?.status === 'pending') {
        const check = await paymentsRepo.findCheck(tx, id)
        // A settled check whose order still waits: the gateway refused the look, or holds
        // another charge; logged for a person when it settled. The order expires as it is.
        if (check?.status !== 'settled') {
          toLookUp.push(id)
          continue
        }
      }
      if (await expireOrder(tx, deps, id)) expired++
    }
    return { expired, toLookUp }
  })
  if (!toLookUp.length) return expired
  // Orders charged before their charges were followed have no check yet: one is opened.
  for (const id of toLookUp) {
    await paymentsRepo.openCheckIfNone(deps.db, { id, kind: 'charge', now })
  }
  return expired + (await runReconciliation(deps))
}

export const startExpiryWorker: WorkerFactory = (deps) =>
  startPoller({
    name: 'orders.expire',
    intervalMs: Math.max(deps.config.workerPollMs, 1_000),
    pass: () => runExpiry(deps),
    onError: (error) => deps.log.error({ err: error }, 'order expiry pass failed'),
  })
