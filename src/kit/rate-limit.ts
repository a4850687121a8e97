// Sliding-log rate limits counted in the database, so every API process shares one count:
// a hit is let through when fewer than `limit` hits were let through in the `windowMs` before
// it. Refused hits are not logged, so a client that keeps retrying is let in as soon as its
// oldest hit leaves the window (which is what Retry-After says).
import { sql } from 'kysely'
import type { Clock } from './clock.ts'
import type { Db } from './db.ts'
import { TooManyRequests } from './errors.ts'

/** One limit: its own bucket name space (`<name>:<key>`), `limit` hits per `windowMs`. */
export interface RateLimit {
  name: string
  limit: number
  windowMs: number
}

/** No limit may look further back: a bucket idle this long is empty and can be pruned. */
export const LONGEST_WINDOW_MS = 3_600_000

export function rateLimit(name: string, limit: number, windowMs: number): RateLimit {
  if (windowMs > LONGEST_WINDOW_MS) throw new Error(`rate limit ${name}: window beyond an hour`)
  return { name, limit, windowMs }
}

/**
 * Logs one hit of `key` under `rule`; throws 429 (with Retry-After) when the window is full.
 * Returns the instant logged, which `refund` takes back.
 */
export async function hit(db: Db, clock: Clock, rule: RateLimit, key: string): Promise<Date> {
  const now = clock.now()
  const since = new Date(now.getTime() - rule.windowMs)
  // One statement, so concurrent hits on the bucket's row queue on its lock and each sees the
  // log the previous one left. `recent` reads the row as it was before this hit.
  const recent = sql`ARRAY(SELECT h FROM unnest(r.hits) h WHERE h > ${since} ORDER BY h)`
  const { rows } = await sql<{ allowed: boolean; blocking: Date | null }>`
    INSERT INTO rate_limits AS r (bucket, hits, allowed, updated_at)
    VALUES (${bucketOf(rule, key)}, ARRAY[${now}::timestamptz], true, ${now})
    ON CONFLICT (bucket) DO UPDATE SET
      hits = CASE WHEN cardinality(${recent}) < ${rule.limit}
        THEN ${recent} || ${now}::timestamptz ELSE ${recent} END,
      allowed = cardinality(${recent}) < ${rule.limit},
      updated_at = ${now}
    RETURNING allowed, hits[cardinality(hits) - ${rule.limit} + 1] AS blocking`.execute(db)
  const { allowed, blocking } = rows[0]!
  if (!allowed) {
    // The hit whose leaving the window makes room (the oldest, unless the limit was lowered).
    const freeAt = blocking ? new Date(blocking).getTime() + rule.windowMs : now.getTime()
    throw new TooManyRequests(Math.max(1, Math.ceil((freeAt - now.getTime()) / 1000)))
  }
  return now
}

/**
 * Logs one hit in each bucket, or none: when one is full, the hits already logged are taken
 * back and its 429 is thrown. Returns the instants logged, in order.
 */
export async function hitEach(
  db: Db,
  clock: Clock,
  hits: [rule: RateLimit, key: string][],
): Promise<Date[]> {
  const logged: Date[] = []
  try {
    for (const [rule, key] of hits) logged.push(await hit(db, clock, rule, key))
  } catch (error) {
    for (const [i, at] of logged.entries()) await refund(db, hits[i]![0], hits[i]![1], at)
    throw error
  }
  return logged
}

/** Takes back one logged hit that turned out not to count (a log-in that succeeded). */
export async function refund(db: Db, rule: RateLimit, key: string, at: Date) {
  // Removes one occurrence only: two hits may share an instant.
  await sql`
    UPDATE rate_limits
    SET hits = hits[:array_position(hits, ${at}::timestamptz) - 1]
      || hits[array_position(hits, ${at}::timestamptz) + 1:]
    WHERE bucket = ${bucketOf(rule, key)} AND ${at}::timestamptz = ANY(hits)`.execute(db)
}

/** Drops buckets untouched since `before` (their logs are empty by then). */
export function pruneRateLimits(db: Db, before: Date) {
  return db.deleteFrom('rate_limits').where('updated_at', '<', before).executeTakeFirst()
}

const bucketOf = (rule: RateLimit, key: string) => `${rule.name}:${key}`
