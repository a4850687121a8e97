// The orders page's filters, read from its query string: a value that does not parse is
// dropped (the page shows everything rather than an error), never a 500.
import { z } from 'zod'
import { ORDER_STATUSES, type OrderListQuery } from '../../../modules/orders/schema.ts'

const day = z.iso.date().optional().catch(undefined)

export const OrdersPageQuery = z.object({
  status: z.enum(ORDER_STATUSES).optional().catch(undefined),
  payment_method: z.enum(['pix', 'card', 'boleto']).optional().catch(undefined),
  product_id: z.uuid().optional().catch(undefined),
  buyer_email: z.email().trim().toLowerCase().optional().catch(undefined),
  de: day,
  ate: day,
  starting_after: z.uuid().optional().catch(undefined),
})
export type OrdersPageQuery = z.infer<typeof OrdersPageQuery>

export function parseOrdersQuery(query: Record<string, string | undefined>): OrdersPageQuery {
  // Empty fields of the GET form arrive as "": the same as absent.
  const present = Object.fromEntries(Object.entries(query).filter(([, v]) => v !== ''))
  return OrdersPageQuery.parse(present)
}

/**
 * São Paulo midnight of a day. Brazil has kept UTC−3 all year since 2019 (no daylight saving),
 * so the offset is fixed; the stats API, which groups by day in SQL, uses the zone database.
 */
const saoPauloMidnight = (date: string) => `${date}T00:00:00-03:00`
const nextDay = (date: string) =>
  new Date(Date.parse(`${date}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10)

/** The API's filters (GET /api/v1/orders and the CSV) from the page's. */
export function apiFilters(q: OrdersPageQuery): Omit<OrderListQuery, 'page' | 'limit'> {
  return {
    status: q.status,
    payment_method: q.payment_method,
    product_id: q.product_id,
    buyer_email: q.buyer_email,
    created_from: q.de ? saoPauloMidnight(q.de) : undefined,
    created_to: q.ate ? saoPauloMidnight(nextDay(q.ate)) : undefined,
    starting_after: q.starting_after,
  }
}

/** A query string of the defined values. */
export function queryString(values: Record<string, string | undefined>): string {
  const params = new URLSearchParams()
  for (const [k, v] of Object.entries(values)) if (v) params.set(k, v)
  const text = params.toString()
  return text ? `?${text}` : ''
}
