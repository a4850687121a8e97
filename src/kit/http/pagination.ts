import { z } from 'zod'

/** `page` from 1, `limit` default 50 and max 100 (SPEC §1). */
export const PageQuery = z.object({
  page: z.coerce.number().int().min(1).default(1),
  limit: z.coerce.number().int().min(1).max(100).default(50),
})
export type PageQuery = z.infer<typeof PageQuery>

export interface Page<T> {
  data: T[]
  page: number
  limit: number
  has_more: boolean
}

/** Repos fetch `limit + 1` rows; the extra one only tells whether another page exists. */
export function toPage<Row, Out>(
  rows: Row[],
  query: PageQuery,
  shape: (row: Row) => Out,
): Page<Out> {
  return {
    data: rows.slice(0, query.limit).map(shape),
    page: query.page,
    limit: query.limit,
    has_more: rows.length > query.limit,
  }
}

export function pageWindow(query: PageQuery): { offset: number; take: number } {
  return { offset: (query.page - 1) * query.limit, take: query.limit + 1 }
}

export const listOf = <T extends z.ZodTypeAny>(item: T) =>
  z.object({ data: z.array(item), page: z.number(), limit: z.number(), has_more: z.boolean() })
