// Idempotency keys are kept 24 h (SPEC §1), then dropped here. The hosted checkout sends a key
// with every order and its answer (a PIX QR among it) is kept with the key, so without this a
// launch's orders would stay in the table for good, a few KB each.
import type { FastifyBaseLogger } from 'fastify'
import type { Clock } from '../clock.ts'
import type { Db } from '../db.ts'
import { type Poller, startPoller } from '../jobs.ts'
import { pruneIdempotencyKeys, WINDOW_MS } from './idempotency.ts'

const EVERY_MS = 600_000

export const startIdempotencyPruner = (deps: {
  db: Db
  clock: Clock
  log: FastifyBaseLogger
}): Poller =>
  startPoller({
    name: 'idempotency.prune',
    intervalMs: EVERY_MS,
    // A pass deletes one batch; the poller runs the next at once while a batch was deleted.
    pass: () => pruneIdempotencyKeys(deps.db, new Date(deps.clock.now().getTime() - WINDOW_MS)),
    onError: (error) => deps.log.error({ err: error }, 'idempotency key pruning failed'),
  })
