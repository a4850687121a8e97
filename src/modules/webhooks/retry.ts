// When a failed delivery is tried again: the configured schedule with jitter, or the receiver's
// Retry-After (on 429 and 503) when that asks for longer, within a cap.

/** Retry-After may ask for at least this long, whatever the schedule. */
const RETRY_AFTER_FLOOR_CAP_MS = 3_600_000

/**
 * The longest wait a receiver's Retry-After can impose: the schedule's longest step (5 h by
 * default), or an hour when the schedule is shorter (development). A receiver cannot park a
 * delivery longer than our own back-off would, so a dead endpoint still reaches its last
 * attempt, and the 24 h disable rule, on time.
 */
export function retryAfterCapMs(scheduleMs: number[]): number {
  return Math.max(RETRY_AFTER_FLOOR_CAP_MS, ...scheduleMs)
}

/**
 * The wait before the next attempt after `attempt` (1-based) failed: the schedule's step plus up
 * to 20 % jitter (never less, so the schedule's total span holds), or the receiver's Retry-After
 * when that is longer, capped by retryAfterCapMs.
 */
export function retryDelayMs(
  attempt: number,
  scheduleMs: number[],
  retryAfterMs: number | null,
  random = Math.random,
): number {
  const step = scheduleMs[Math.min(Math.max(attempt, 1), scheduleMs.length) - 1]!
  const asked = Math.min(retryAfterMs ?? 0, retryAfterCapMs(scheduleMs))
  return Math.round(Math.max(step * (1 + random() * 0.2), asked))
}

/** The three HTTP-date forms (RFC 9110 §5.6.7) all open with the day's name. */
const HTTP_DATE = /^(Mon|Tue|Wed|Thu|Fri|Sat|Sun)[a-z]*,? /i

/**
 * `Retry-After` (RFC 9110 §10.2.3), delta-seconds or an HTTP-date, as milliseconds from now;
 * null when absent or malformed. A date in the past means "now" (0).
 */
export function parseRetryAfter(header: string | undefined, nowMs = Date.now()): number | null {
  const value = header?.trim()
  if (!value) return null
  if (/^\d+$/.test(value)) return Number(value) * 1000
  if (!HTTP_DATE.test(value)) return null
  const date = Date.parse(value)
  return Number.isNaN(date) ? null : Math.max(0, date - nowMs)
}
