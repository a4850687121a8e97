// The one source of "now". Nothing reads Date.now() for business time: tests and the sandbox
// move this clock forward, and every process of a deployment must agree on it.
import { sql } from 'kysely'
import type { Db } from './db.ts'

export interface Clock {
  now(): Date
  /** Moves the clock forward, never back (sandbox control, tests). */
  advance(ms: number): Promise<void>
  /** Stops background refreshing, if any. */
  stop?(): void
}

/** A clock private to this process (unit tests, tools). */
export function systemClock(): Clock {
  let offsetMs = 0
  return {
    now: () => new Date(Date.now() + offsetMs),
    async advance(ms) {
      offsetMs += ms
    },
  }
}

const OFFSET_KEY = 'clock_offset_ms'

/**
 * A clock whose offset lives in the database, so advancing it on one API process moves the
 * workers' time too. Each process re-reads the offset every `refreshMs`. The offset only grows,
 * so a process keeps the largest it has seen: a refresh that read before an advance committed
 * lands after it with the old offset, and would otherwise set this process's clock back until
 * the next refresh (a webhook endpoint's failure dated 12 h early, say, and the endpoint disabled
 * a day too soon).
 */
export async function databaseClock(db: Db, refreshMs: number): Promise<Clock> {
  let offsetMs = 0
  const learn = (value: string | undefined) => {
    offsetMs = Math.max(offsetMs, Number(value ?? 0))
  }
  const read = async () => {
    const row = await db
      .selectFrom('settings')
      .select('value')
      .where('key', '=', OFFSET_KEY)
      .executeTakeFirst()
    learn(row?.value)
  }
  await read()
  const timer = setInterval(() => {
    read().catch(() => {})
  }, refreshMs)
  timer.unref()
  return {
    now: () => new Date(Date.now() + offsetMs),
    async advance(ms) {
      const { rows } = await sql<{ value: string }>`
        INSERT INTO settings (key, value) VALUES (${OFFSET_KEY}, ${String(ms)})
        ON CONFLICT (key) DO UPDATE SET value = (settings.value::bigint + ${ms}::bigint)::text
        RETURNING value`.execute(db)
      learn(rows[0]!.value)
    },
    stop: () => clearInterval(timer),
  }
}
