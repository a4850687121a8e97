// Sliding-log rate limits counted in the database, so every API process shares one count:
// a hit is let through when fewer than `limit` hits were let through in the `windowMs` before
// it. Refused hits are not logged, so a client that keeps retrying is let in as soon as its
// oldest hit leaves the window (which is what Retry-After says).
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
  const now = clock.now()
  const since = new Date(now.getTime() - opts.windowMs)
  // One statement, so concurrent hits on the bucket's row queue on its lock and each sees the
  // log the previous one left. `recent` reads the row as it was before this hit.
  const recent = sql`ARRAY(SELECT h FROM unnest(r.hits) h WHERE h > ${since} ORDER BY h)`
  const { rows } = await sql<{ allowed: boolean; oldest: Date }>`
    INSERT INTO rate_limits AS r (bucket, hits, allowed, updated_at)
    VALUES (${opts.bucket}, ARRAY[${now}::timestamptz], true, ${now})
    ON CONFLICT (bucket) DO UPDATE SET
      hits = CASE WHEN cardinality(${recent}) < ${opts.limit}
        THEN ${recent} || ${now}::timestamptz ELSE ${recent} END,
      allowed = cardinality(${recent}) < ${opts.limit},
      updated_at = ${now}
    RETURNING allowed, hits[1] AS oldest`.execute(db)
  const { allowed, oldest } = rows[0]!
  if (!allowed) {
    const retryAfterMs = new Date(oldest).getTime() + opts.windowMs - now.getTime()
    throw new TooManyRequests(Math.max(1, Math.ceil(retryAfterMs / 1000)))
  }
}

/** Drops buckets untouched since `before` (their logs are empty by then). */
export function pruneRateLimits(db: Db, before: Date) {
  return db.deleteFrom('rate_limits').where('updated_at', '<', before).executeTakeFirst()
}
