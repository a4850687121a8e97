// Sliding-log rate limits counted in the database, so every API process shares one count:
// a hit is let through when fewer than `limit` hits were let through in the `windowMs` before
// it. Refused hits are not logged, so a client that keeps retrying is let in as soon as its
// oldest hit leaves the window (which is what Retry-After says).
import { sql } from 'kysely'
import type { Clock } from './clock.ts'
import type { Db } from './db.ts'
import { TooManyRequests } from './errors.ts'
import { type Part, writeParts } from './statement.ts'
import { type Fragment, fragmentTemplate } from './template.ts'

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

/** A hit's answer: whether it was let through, and the logged hit whose leaving makes room. */
export interface HitRow {
  hit_allowed: boolean
  hit_blocking: Date | null
}

/** The CTE name of a hit written as a part of another statement. */
const HIT = 'rate_hit'

// One statement, so concurrent hits on the bucket's row queue on its lock and each sees the
// log the previous one left. `recent` reads the row as it was before this hit.
const hitInsert = fragmentTemplate(
  (_, v: { bucket: string; now: Date; since: Date; limit: number }) => {
    const recent = sql`ARRAY(SELECT h FROM unnest(r.hits) h WHERE h > ${v.since} ORDER BY h)`
    return sql`INSERT INTO rate_limits AS r (bucket, hits, allowed, updated_at)
    VALUES (${v.bucket}, ARRAY[${v.now}::timestamptz], true, ${v.now})
    ON CONFLICT (bucket) DO UPDATE SET
      hits = CASE WHEN cardinality(${recent}) < ${v.limit}
        THEN ${recent} || ${v.now}::timestamptz ELSE ${recent} END,
      allowed = cardinality(${recent}) < ${v.limit},
      updated_at = ${v.now}
    RETURNING allowed, hits[cardinality(hits) - ${v.limit} + 1] AS blocking`
  },
)

const HIT_ALONE: Fragment = {
  sql: `SELECT allowed AS hit_allowed, blocking AS hit_blocking FROM "${HIT}"`,
  parameters: [],
}

/**
 * One hit of `key` under `rule`, as a part of a statement (kit/statement.ts), its instant, and
 * the bucket whose row it locks.
 */
export function hitPart(
  clock: Clock,
  rule: RateLimit,
  key: string,
): { part: Part; at: Date; bucket: string } {
  const now = clock.now()
  const since = new Date(now.getTime() - rule.windowMs)
  const values = { bucket: bucketOf(rule, key), now, since, limit: rule.limit }
  return { part: { name: HIT, query: hitInsert(values) }, at: now, bucket: values.bucket }
}

/** Throws 429 (with Retry-After) for a hit the window had no room for; else returns its instant. */
export function checkHit(rule: RateLimit, at: Date, row: HitRow): Date {
  if (row.hit_allowed) return at
  // The hit whose leaving the window makes room (the oldest, unless the limit was lowered).
  const blocking = row.hit_blocking
  const freeAt = blocking ? new Date(blocking).getTime() + rule.windowMs : at.getTime()
  throw new TooManyRequests(Math.max(1, Math.ceil((freeAt - at.getTime()) / 1000)))
}

/**
 * Logs one hit of `key` under `rule`; throws 429 (with Retry-After) when the window is full.
 * Returns the instant logged, which `refund` takes back.
 */
export async function hit(db: Db, clock: Clock, rule: RateLimit, key: string): Promise<Date> {
  const { part, at } = hitPart(clock, rule, key)
  const [row] = await writeParts<HitRow>(db, [part], HIT_ALONE)
  return checkHit(rule, at, row!)
}

/**
 * `read` in the statement of a hit (hitPart): its rows, each with the hit's answer (HitRow's
 * columns) — one row, the read's columns null, when the read finds nothing — so a request that
 * reads something anyway logs its hit without a round trip of its own.
 */
export function besideHit(read: Fragment): Fragment {
  let text = besideTexts.get(read.sql)
  if (!text) {
    text = `SELECT h.allowed AS hit_allowed, h.blocking AS hit_blocking, r.*
      FROM "${HIT}" h LEFT JOIN LATERAL (${read.sql}) r ON true`
    besideTexts.set(read.sql, text)
  }
  return { sql: text, parameters: read.parameters }
}
const besideTexts = new Map<string, string>()

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
