// The summaries of sale notice windows (service.ts): once a window has ended, and a margin more
// so that sales committing late are counted, one mail to the owner with its other sales. The
// window is deleted in the transaction that queues the mail, so told once.
import type { Deps } from '../../deps.ts'
import { withTx } from '../../kit/db.ts'
import { startPoller } from '../../kit/jobs.ts'
import type { WorkerFactory } from '../../workers.ts'
import { accountOwner } from '../accounts/service.ts'
import { readSettings } from '../accounts/settings.ts'
import { queueEmail } from '../email/service.ts'
import { saleSummaryEmail } from '../email/templates.ts'
import { saleNoticesRepo as repo } from './repo.ts'

/**
 * How long after a window ends its summary waits: a sale's time is taken before its transaction
 * commits, so a sale of the window may become visible after the window has ended.
 */
export const SUMMARY_MARGIN_MS = 30_000

const BATCH = 100

/** Every 5 s: a summary already waits half a minute by design, and an idle service polls less. */
const POLL_MS = 5_000

export async function summarizeEndedWindows(deps: Deps): Promise<number> {
  return withTx(deps.db, async (tx) => {
    const now = deps.clock.now()
    const due = await repo.lockDue(tx, new Date(now.getTime() - SUMMARY_MARGIN_MS), BATCH)
    for (const window of due) {
      await repo.remove(tx, window.id)
      // Turned off meanwhile, or no other sale: nothing to tell.
      const { sale_notifications } = await readSettings(tx, window.account_id)
      if (!sale_notifications) continue
      const products = await repo.salesIn(tx, window)
      if (!products.length) continue
      const owner = await accountOwner(tx, window.account_id)
      if (!owner) continue
      await queueEmail(tx, deps, {
        to: owner.email,
        dedupeKey: `sale-summary:${window.id}`,
        ...saleSummaryEmail({
          ownerName: owner.name,
          products: products.map((p) => ({
            name: p.product_name,
            sales: p.sales,
            amountCents: p.amount_cents,
          })),
          ordersUrl: `${deps.config.baseUrl}/dashboard/pedidos`,
        }),
      })
    }
    return due.length
  })
}

export const startSaleSummaryWorker: WorkerFactory = (deps) =>
  startPoller({
    name: 'sale-notices.summarize',
    intervalMs: Math.max(deps.config.workerPollMs, POLL_MS),
    pass: () => summarizeEndedWindows(deps),
    onError: (error) => deps.log.error({ err: error }, 'sale summary pass failed'),
  })
