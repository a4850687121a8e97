// Several writes of one transaction sent as one statement (issue 13): a round trip cost the
// service and PostgreSQL more than most of the writes it carried. Each part is one
// data-modifying statement and becomes a CTE of `WITH … SELECT`. PostgreSQL runs every such CTE
// exactly once and to completion, whether or not the final SELECT reads it, all on the
// statement's one snapshot: a part sees no row another part wrote, only an earlier part's
// RETURNING, by its name. Triggers (foreign keys, the ledger's) fire when the statement ends.
import { type OperationNodeSource, type RawBuilder, sql } from 'kysely'
import type { Executor } from './db.ts'

export interface Part {
  /** The CTE's name, unique in its statement: later parts may read its RETURNING by it. */
  name: string
  /**
   * A data-modifying statement (a Kysely builder or `sql`), with no WITH of its own; a read
   * (a locking one, say) runs only when a later part or the final SELECT reads it.
   */
  query: OperationNodeSource
}

/** The parts as one statement, whose answer is `select` (by default nothing worth reading). */
export function partsStatement<Row>(parts: Part[], select?: RawBuilder<Row>): RawBuilder<Row> {
  const names = new Set(parts.map((p) => p.name))
  if (names.size !== parts.length) throw new Error('statement parts need distinct names')
  const ctes = parts.map((p) => sql`${sql.id(p.name)} AS (${p.query})`)
  return sql<Row>`WITH ${sql.join(ctes)} ${select ?? sql`SELECT 1`}`
}

/** Runs the parts as one statement; the rows of `select`. */
export async function writeParts<Row = never>(
  db: Executor,
  parts: Part[],
  select?: RawBuilder<Row>,
): Promise<Row[]> {
  if (!parts.length) return []
  return (await partsStatement(parts, select).execute(db)).rows
}
