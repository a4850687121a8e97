// Billing periods in UTC. A month after Jan 31 is Feb 28 (or 29): the day is clamped to the
// target month. Each period counts from the end of the previous one.

export type Interval = 'month' | 'year'

export function addInterval(from: Date, interval: Interval, count: number): Date {
  const months = interval === 'year' ? 12 * count : count
  const target = new Date(from.getTime())
  const day = from.getUTCDate()
  target.setUTCDate(1)
  target.setUTCMonth(target.getUTCMonth() + months)
  const lastDay = new Date(
    Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0),
  ).getUTCDate()
  target.setUTCDate(Math.min(day, lastDay))
  return target
}
