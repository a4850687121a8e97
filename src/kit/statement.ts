// Several writes of one transaction sent as one statement (issue 13): a round trip cost the
// service and PostgreSQL more than most of the writes it carried. Each part is one
// data-modifying statement and becomes a CTE of `WITH … SELECT`. PostgreSQL runs every such CTE
// exactly once and to completion, whether or not the final SELECT reads it, all on the
// statement's one snapshot: a part sees no row another part wrote, only an earlier part's
// RETURNING, by its name. Triggers (foreign keys, the ledger's) fire when the statement ends.
import { CompiledQuery, type OperationNodeSource, type RawBuilder, sql } from 'kysely'
import type { Executor } from './db.ts'
import { compiler, type Fragment } from './template.ts'

export interface Part {
  /** The CTE's name, unique in its statement: later parts may read its RETURNING by it. */
  name: string
  /**
   * A data-modifying statement (a Kysely builder, `sql`, or a template's fragment), with no
   * WITH of its own; a read (a locking one, say) runs only when a later part or the final
   * SELECT reads it.
   */
  query: OperationNodeSource | Fragment
}

const fragmentOf = (query: OperationNodeSource | Fragment): Fragment =>
  'toOperationNode' in query ? sql`${query}`.compile(compiler) : query

/** `$n` of a fragment, renumbered after the parameters of the fragments before it. */
const shifted = (text: string, offset: number) =>
  offset ? text.replace(/\$(\d+)/g, (_, n: string) => `$${Number(n) + offset}`) : text

/** Statement texts by their parts' texts: the same parts compose once (templates stay cheap). */
const composedTexts = new Map<string, string>()
const MAX_COMPOSED = 1_000

/** The parts as one statement, whose answer is `select` (by default nothing worth reading). */
export function partsStatement(
  parts: Part[],
  select?: OperationNodeSource | Fragment,
): CompiledQuery {
  const names = new Set(parts.map((p) => p.name))
  if (names.size !== parts.length) throw new Error('statement parts need distinct names')
  const fragments = parts.map((p) => fragmentOf(p.query))
  const last = select ? fragmentOf(select) : { sql: 'SELECT 1', parameters: [] }
  const key = `${parts.map((p, i) => `${p.name}\u0000${fragments[i]!.sql}`).join('\u0001')}\u0002${last.sql}`
  let text = composedTexts.get(key)
  if (text === undefined) {
    let offset = 0
    const ctes = fragments.map((f, i) => {
      const cte = `"${parts[i]!.name}" AS (${shifted(f.sql, offset)})`
      offset += f.parameters.length
      return cte
    })
    text = `WITH ${ctes.join(', ')} ${shifted(last.sql, offset)}`
    if (composedTexts.size < MAX_COMPOSED) composedTexts.set(key, text)
  }
  return CompiledQuery.raw(
    text,
    [...fragments, last].flatMap((f) => f.parameters),
  )
}

/** Runs the parts as one statement; the rows of `select`. */
export async function writeParts<Row = never>(
  db: Executor,
  parts: Part[],
  select?: RawBuilder<Row> | Fragment,
): Promise<Row[]> {
  if (!parts.length) return []
  return (await db.executeQuery<Row>(partsStatement(parts, select))).rows
}
