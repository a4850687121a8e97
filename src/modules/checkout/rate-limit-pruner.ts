// Rate-limit buckets (one per client IP, e-mail or user and limit) are dropped once idle, so
// the table holds only the clients of the last hour, not every IP ever seen.
import type { Deps } from '../../deps.ts'
import { startPoller } from '../../kit/jobs.ts'
import { LONGEST_WINDOW_MS, pruneRateLimits } from '../../kit/rate-limit.ts'
import type { WorkerFactory } from '../../workers.ts'

/** No limit's window is longer, so a pruned bucket had nothing left in its log. */
const IDLE_MS = LONGEST_WINDOW_MS
const EVERY_MS = 600_000

export const startRateLimitPruner: WorkerFactory = (deps: Deps) =>
  startPoller({
    name: 'rate-limits.prune',
    intervalMs: EVERY_MS,
    pass: async () => {
      await pruneRateLimits(deps.db, new Date(deps.clock.now().getTime() - IDLE_MS))
      return 0
    },
    onError: (error) => deps.log.error({ err: error }, 'rate-limit pruning failed'),
  })
