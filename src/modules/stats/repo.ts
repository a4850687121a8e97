// Read-only figures for the dashboard's overview. A read model across domains: it reads orders,
// checkout sessions and the account's products, and writes nothing. Each figure is one grouped
// query over the account's rows of the period, answered by an index made for it (0020).
import { sql } from 'kysely'
import type { Executor } from '../../kit/db.ts'

/** Days are counted in São Paulo time, whatever the server's zone. */
export const STATS_TIME_ZONE = 'America/Sao_Paulo'

export interface PaidDay {
  date: string
  revenue_cents: number
  paid_orders: number
}

export interface SessionDay {
  date: string
  sessions: number
}

/** Midnight of a São Paulo calendar day (`YYYY-MM-DD`), as the database computes it. */
const dayStart = (day: string) => sql`(${day}::timestamp AT TIME ZONE ${STATS_TIME_ZONE})`
/** The São Paulo calendar day of an instant (a `date`: cheaper per row than formatting it). */
const dayOf = (column: string) => sql`(${sql.ref(column)} AT TIME ZONE ${STATS_TIME_ZONE})::date`
/** Days are formatted once per group, not per row, and whatever the session's DateStyle. */
const isoDay = sql`to_char(day, 'YYYY-MM-DD')`

export const statsRepo = {
  /**
   * Orders that became paid in [from, toExclusive), by payment day: the price (what the creator
   * sold; installment interest is the platform's), whatever happened to the order afterwards.
   */
  async paidByDay(db: Executor, accountId: string, from: string, toExclusive: string) {
    const { rows } = await sql<PaidDay>`
      SELECT ${isoDay} AS date, revenue_cents, paid_orders FROM (
        SELECT ${dayOf('paid_at')} AS day,
          SUM(amount_cents - interest_cents)::int8 AS revenue_cents,
          COUNT(*)::int8 AS paid_orders
        FROM orders
        WHERE account_id = ${accountId}
          AND paid_at >= ${dayStart(from)} AND paid_at < ${dayStart(toExclusive)}
        GROUP BY 1) per_day`.execute(db)
    return rows
  },

  /** Checkout sessions created in [from, toExclusive) for the account's products, by day. */
  async sessionsByDay(db: Executor, accountId: string, from: string, toExclusive: string) {
    const { rows } = await sql<SessionDay>`
      SELECT ${isoDay} AS date, sessions FROM (
        SELECT ${dayOf('created_at')} AS day, COUNT(*)::int8 AS sessions
        FROM checkout_sessions
        WHERE product_id IN (SELECT id FROM products WHERE account_id = ${accountId})
          AND created_at >= ${dayStart(from)} AND created_at < ${dayStart(toExclusive)}
        GROUP BY 1) per_day`.execute(db)
    return rows
  },
}
