import { describe, expect, it } from 'vitest'
import {
  parseRetryAfter,
  retryAfterCapMs,
  retryDelayMs,
} from '../../../src/modules/webhooks/retry.ts'

const MINUTE = 60_000
const HOUR = 60 * MINUTE
const schedule = [1 * MINUTE, 10 * MINUTE, 1 * HOUR, 5 * HOUR] // the default 1m,10m,1h,5h

describe('parseRetryAfter', () => {
  const now = Date.parse('2026-11-23T12:00:00Z')

  it('reads delta-seconds as milliseconds', () => {
    expect(parseRetryAfter('0', now)).toBe(0)
    expect(parseRetryAfter('2', now)).toBe(2_000)
    expect(parseRetryAfter(' 120 ', now)).toBe(120_000)
  })

  it('reads the three HTTP-date forms as the time left until then', () => {
    expect(parseRetryAfter('Mon, 23 Nov 2026 12:00:30 GMT', now)).toBe(30_000) // IMF-fixdate
    expect(parseRetryAfter('Monday, 23-Nov-26 12:01:00 GMT', now)).toBe(60_000) // RFC 850
    expect(parseRetryAfter('Mon Nov 23 12:00:05 2026', now)).not.toBeNull() // asctime (local)
  })

  it('a date already past means now', () => {
    expect(parseRetryAfter('Sun, 22 Nov 2026 12:00:00 GMT', now)).toBe(0)
  })

  it('absent or malformed values are ignored (null), not read as dates', () => {
    for (const value of [undefined, '', '   ', '-5', '1.5', 'soon', '2026-11-23', 'Mon', '5s']) {
      expect(parseRetryAfter(value, now), String(value)).toBeNull()
    }
  })
})

describe('retryDelayMs', () => {
  it('follows the schedule step by attempt, in milliseconds, with no jitter at random() = 0', () => {
    expect([1, 2, 3, 4].map((attempt) => retryDelayMs(attempt, schedule, null, () => 0))).toEqual(
      schedule,
    )
    // Past the schedule's end the last step repeats (manual retries add attempts).
    expect(retryDelayMs(7, schedule, null, () => 0)).toBe(5 * HOUR)
  })

  it('jitter only lengthens the wait, by at most 20 %', () => {
    expect(retryDelayMs(2, schedule, null, () => 0.999999)).toBe(Math.round(10 * MINUTE * 1.2))
    for (let i = 0; i < 1_000; i++) {
      const delay = retryDelayMs(3, schedule, null)
      expect(delay).toBeGreaterThanOrEqual(HOUR)
      expect(delay).toBeLessThanOrEqual(1.2 * HOUR)
    }
  })

  it('Retry-After wins when longer than the step, never when shorter', () => {
    expect(retryDelayMs(1, schedule, 30 * MINUTE, () => 0)).toBe(30 * MINUTE)
    expect(retryDelayMs(3, schedule, 5_000, () => 0)).toBe(HOUR)
  })

  it('Retry-After is capped at the longest step, or an hour for a shorter schedule', () => {
    expect(retryAfterCapMs(schedule)).toBe(5 * HOUR)
    expect(retryDelayMs(1, schedule, 48 * HOUR, () => 0)).toBe(5 * HOUR)
    const dev = [50, 100, 200, 400]
    expect(retryAfterCapMs(dev)).toBe(HOUR)
    expect(retryDelayMs(1, dev, 2_000, () => 0)).toBe(2_000)
    expect(retryDelayMs(1, dev, 10 * HOUR, () => 0)).toBe(HOUR)
  })
})
