// Background work is rows in outbox tables (webhook_deliveries, emails, …) claimed with
// FOR UPDATE SKIP LOCKED under a lease, so any number of worker processes can share them
// and a killed worker's rows come back once the lease expires.
import { type RawBuilder, sql } from 'kysely'
import type { Db } from './db.ts'

export interface ClaimOptions {
  /** An outbox table with id, status, next_attempt_at, locked_until, attempts. */
  table: 'emails' | 'refunds' | 'gateway_checks'
  now: Date
  limit: number
  leaseMs: number
}

/** Leases up to `limit` due rows and returns their ids; `attempts` counts the claim. */
export async function claimDue(db: Db, opts: ClaimOptions): Promise<string[]> {
  const rows = await claim<{ id: string }>(db, opts, sql.ref('id'))
  return rows.map((r) => r.id)
}

/** claimDue returning the leased rows whole (as the claim left them): no second read. */
export function claimDueRows<Row>(db: Db, opts: ClaimOptions): Promise<Row[]> {
  return claim<Row>(db, opts, sql.raw('*'))
}

async function claim<Row>(db: Db, opts: ClaimOptions, returning: RawBuilder<unknown>) {
  const table = sql.table(opts.table)
  const leaseUntil = new Date(opts.now.getTime() + opts.leaseMs)
  const result = await sql<Row>`
    UPDATE ${table} SET locked_until = ${leaseUntil}, attempts = attempts + 1
    WHERE id IN (
      SELECT id FROM ${table}
      WHERE status = 'pending' AND next_attempt_at <= ${opts.now}
        AND (locked_until IS NULL OR locked_until <= ${opts.now})
      ORDER BY next_attempt_at
      LIMIT ${opts.limit}
      FOR UPDATE SKIP LOCKED
    )
    RETURNING ${returning}`.execute(db)
  return result.rows
}

/** One pass of a worker: leases the due rows, then handles them one by one; returns how many. */
export async function handleDue(
  db: Db,
  opts: ClaimOptions,
  handle: (id: string) => Promise<void>,
): Promise<number> {
  const ids = await claimDue(db, opts)
  for (const id of ids) await handle(id)
  return ids.length
}

/** Doubling waits from `baseMs` (attempt 1) up to `maxMs`: the retry schedule of a job. */
export const backoffMs = (attempt: number, baseMs: number, maxMs: number) =>
  Math.min(baseMs * 2 ** Math.max(0, attempt - 1), maxMs)

export interface Poller {
  readonly name: string
  /** Wakes the loop for a pass now (new work was written); returns at once. */
  kick(): void
  /**
   * Runs one full pass that starts after this call (a pass under way is waited for first) and
   * resolves with what it found once it has ended; rejects if it failed. Tests use it to assert
   * after a pass that had the chance to act, instead of sleeping and hoping one ran.
   */
  runOnce(): Promise<number>
  stop(): Promise<void>
}

/** What a pass is told: `requested` when someone awaits it (runOnce), so it must not skip. */
export interface PassContext {
  requested: boolean
}

interface Waiter {
  resolve: (found: number) => void
  reject: (error: unknown) => void
}

/**
 * Calls `pass` in a loop: again at once while it finds work or was kicked meanwhile, otherwise
 * after `intervalMs`.
 * A failing pass is logged and retried on the next tick; it never kills the process.
 */
export function startPoller(opts: {
  name: string
  intervalMs: number
  pass: (context: PassContext) => Promise<number>
  onError: (error: unknown) => void
}): Poller {
  let stopped = false
  let timer: NodeJS.Timeout | null = null
  let wake: (() => void) | null = null
  // A kick that lands while a pass runs must not be lost: it earns one more pass at once.
  let kicked = false
  // runOnce callers waiting for the next pass to start and end.
  let waiting: Waiter[] = []
  const kick = () => {
    kicked = true
    if (timer) clearTimeout(timer)
    wake?.()
  }
  const loop = (async () => {
    while (!stopped) {
      kicked = false
      const waiters = waiting
      waiting = []
      try {
        const found = await opts.pass({ requested: waiters.length > 0 })
        for (const w of waiters) w.resolve(found)
        if (found > 0) continue
      } catch (error) {
        opts.onError(error)
        for (const w of waiters) w.reject(error)
      }
      if (kicked || stopped) continue
      await new Promise<void>((resolve) => {
        wake = resolve
        timer = setTimeout(resolve, opts.intervalMs)
      })
      wake = null
    }
    for (const w of waiting) w.reject(new Error(`${opts.name} stopped before its pass`))
  })()
  return {
    name: opts.name,
    kick,
    runOnce() {
      if (stopped) return Promise.reject(new Error(`${opts.name} is stopped`))
      const pass = new Promise<number>((resolve, reject) => waiting.push({ resolve, reject }))
      kick()
      return pass
    },
    async stop() {
      stopped = true
      if (timer) clearTimeout(timer)
      wake?.()
      await loop
    },
  }
}
