// Fixed-window rate limits counted in the database, so every API process shares one count.
import { sql } from 'kysely'
import type { Clock } from './clock.ts'
import type { Db } from './db.ts'
import { TooManyRequests } from './errors.ts'

/** Counts one hit of `bucket`; throws 429 (with Retry-After) beyond `limit` per window. */
export async function hit(
  db: Db,
  clock: Clock,
  opts: { bucket: string; limit: number; windowMs: number },
) {
  const now = clock.now().getTime()
  const windowStart = new Date(now - (now % opts.windowMs))
  const { rows } = await sql<{ hits: number }>`
    INSERT INTO rate_limit_windows (bucket, window_start, hits) VALUES (${opts.bucket}, ${windowStart}, 1)
    ON CONFLICT (bucket, window_start) DO UPDATE SET hits = rate_limit_windows.hits + 1
    RETURNING hits`.execute(db)
  if (rows[0]!.hits > opts.limit) {
    const retryAfterMs = windowStart.getTime() + opts.windowMs - now
    throw new TooManyRequests(Math.max(1, Math.ceil(retryAfterMs / 1000)))
  }
}

/** Drops windows that ended long ago (run by a maintenance pass). */
export function pruneWindows(db: Db, before: Date) {
  return db.deleteFrom('rate_limit_windows').where('window_start', '<', before).execute()
}
