import { type SelectQueryBuilder, sql } from 'kysely'
import { z } from 'zod'

/** The largest `limit` a list takes. */
export const MAX_PAGE_LIMIT = 100

/**
 * `page` from 1, `limit` default 50 and max 100 (SPEC §1). `starting_after`, the id of the
 * previous page's last item, pages by keyset instead: as fast a million rows deep as on page 1.
 */
export const PageQuery = z.object({
  page: z.coerce.number().int().min(1).default(1),
  limit: z.coerce.number().int().min(1).max(MAX_PAGE_LIMIT).default(50),
  starting_after: z.uuid().optional(),
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

export interface PageWindow {
  offset: number
  take: number
  startingAfter?: string | undefined
}

export function pageWindow(query: PageQuery): PageWindow {
  return {
    offset: (query.page - 1) * query.limit,
    take: query.limit + 1,
    startingAfter: query.starting_after,
  }
}

/**
 * Orders a list newest first by (`time`, `id`) and cuts the page: after the `startingAfter`
 * row when given (a row comparison the index answers; an unknown id gives an empty page), else
 * at the page's offset. The cursor row is looked up in `table` (within `scope`, so another
 * list's id is no cursor here); `alias` is how the query names that table. Use with
 * `query.$call(newestFirst(window, {...}))`.
 */
export function newestFirst(
  window: PageWindow,
  cols: {
    table: string
    alias?: string
    time?: string
    id?: string
    scope?: Record<string, string>
  },
) {
  const { table, alias = table, time = 'created_at', id = 'id', scope = {} } = cols
  const inScope = Object.entries(scope).map(([c, v]) => sql` AND ${sql.ref(c)} = ${v}`)
  // Any table's builder: the helper only appends SQL, so its row types pass through untouched.
  // biome-ignore lint/suspicious/noExplicitAny: Kysely's builder is invariant in its parameters
  return <QB extends SelectQueryBuilder<any, any, any>>(query: QB): QB => {
    const t = sql.ref(`${alias}.${time}`)
    const k = sql.ref(`${alias}.${id}`)
    const cut = window.startingAfter
      ? query.where(
          sql<boolean>`(${t}, ${k}) < (SELECT ${sql.ref(time)}, ${sql.ref(id)} FROM ${sql.table(table)} WHERE ${sql.ref(id)} = ${window.startingAfter}${sql.join(inScope, sql``)})`,
        )
      : query.offset(window.offset)
    return cut.orderBy(t, 'desc').orderBy(k, 'desc').limit(window.take) as QB
  }
}

export const listOf = <T extends z.ZodTypeAny>(item: T) =>
  z.object({ data: z.array(item), page: z.number(), limit: z.number(), has_more: z.boolean() })
