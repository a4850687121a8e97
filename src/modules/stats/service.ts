// The overview's figures (GET /api/v1/stats and the /dashboard page): revenue, paid orders and
// checkout sessions per São Paulo day, and the period's conversion.
import type { Clock } from '../../kit/clock.ts'
import type { Executor } from '../../kit/db.ts'
import { BadRequest } from '../../kit/errors.ts'
import { toBrl } from '../../kit/money.ts'
import { statsRepo as repo, STATS_TIME_ZONE } from './repo.ts'
import type { StatsOut, StatsQuery } from './schema.ts'

/** The longest period one request may ask: a year (leap years included). */
export const MAX_STATS_DAYS = 366
export const DEFAULT_STATS_DAYS = 30

const DAY_MS = 86_400_000

/** Today's date in São Paulo, `YYYY-MM-DD`. */
export function todayInSaoPaulo(now: Date): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: STATS_TIME_ZONE }).format(now)
}

/** Calendar arithmetic on `YYYY-MM-DD` (no time zone involved: these are dates, not instants). */
export function addDays(day: string, days: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10)
}

function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS)
}

/** The period asked, with its defaults: the last 30 days up to today. */
export function statsPeriod(ctx: { clock: Clock }, query: StatsQuery) {
  const to = query.to ?? todayInSaoPaulo(ctx.clock.now())
  const from = query.from ?? addDays(to, -(DEFAULT_STATS_DAYS - 1))
  const span = daysBetween(from, to) + 1
  if (span < 1)
    throw new BadRequest('O início do período deve vir antes do fim', [
      { path: 'from', message: 'must not be after `to`' },
    ])
  if (span > MAX_STATS_DAYS)
    throw new BadRequest(`O período pode ter no máximo ${MAX_STATS_DAYS} dias`, [
      { path: 'from', message: `at most ${MAX_STATS_DAYS} days before \`to\`` },
    ])
  return { from, to, span }
}

export async function accountStats(
  db: Executor,
  ctx: { clock: Clock },
  accountId: string,
  query: StatsQuery,
): Promise<StatsOut> {
  const { from, to, span } = statsPeriod(ctx, query)
  const end = addDays(to, 1)
  const [paid, sessions] = await Promise.all([
    repo.paidByDay(db, accountId, from, end),
    repo.sessionsByDay(db, accountId, from, end),
  ])
  const paidOn = new Map(paid.map((d) => [d.date, d]))
  const sessionsOn = new Map(sessions.map((d) => [d.date, Number(d.sessions)]))
  let revenueCents = 0
  let paidOrders = 0
  let sessionCount = 0
  const days = Array.from({ length: span }, (_, i) => {
    const date = addDays(from, i)
    const day = paidOn.get(date)
    const cents = Number(day?.revenue_cents ?? 0)
    const orders = Number(day?.paid_orders ?? 0)
    const opened = sessionsOn.get(date) ?? 0
    revenueCents += cents
    paidOrders += orders
    sessionCount += opened
    return { date, revenue: toBrl(cents), paid_orders: orders, sessions: opened }
  })
  return {
    from,
    to,
    days,
    revenue: toBrl(revenueCents),
    paid_orders: paidOrders,
    sessions: sessionCount,
    conversion: sessionCount ? Math.round((paidOrders / sessionCount) * 10_000) / 10_000 : null,
  }
}
