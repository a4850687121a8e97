// Several writes of one transaction sent as one statement (issue 13): a round trip cost the
// service and PostgreSQL more than most of the writes it carried. Each part is one
// data-modifying statement and becomes a CTE of `WITH … SELECT`. PostgreSQL runs every such CTE
// exactly once and to completion, whether or not the final SELECT reads it, all on the
// statement's one snapshot: a part sees no row another part wrote, only an earlier part's
// RETURNING, by its name. Triggers (foreign keys, the ledger's) fire when the statement ends.
// A part may also hand a value read in the statement to this process once the transaction has
// committed (`onCommit`: the outbox rows it wrote born leased to this process's workers).
import { CompiledQuery, type OperationNodeSource, type RawBuilder, sql } from 'kysely'
import { afterCommit } from './after-commit.ts'
import { type Db, ENDS_TRANSACTION, type Executor, runTogether } from './db.ts'
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
  /**
   * `value`, an SQL expression without parameters read at the statement's end (over this
   * part's RETURNING by its name, say), given to `take` once the transaction has committed
   * (kit/after-commit.ts): never if it rolls back.
   */
  onCommit?: { value: string; take: (value: unknown) => void }
}

/** Columns the statement adds beside the caller's when parts hand values over at commit. */
const ROW = '$row'
const handed = (i: number) => `$commit${i}`

const isFragment = (query: OperationNodeSource | Fragment): query is Fragment =>
  !('toOperationNode' in query)

const fragmentOf = (query: OperationNodeSource | Fragment): Fragment =>
  isFragment(query) ? query : sql`${query}`.compile(compiler)

/** `$n` of a fragment, renumbered after the parameters of the fragments before it. */
const shifted = (text: string, offset: number) =>
  offset ? text.replace(/\$(\d+)/g, (_, n: string) => `$${Number(n) + offset}`) : text

function compose(
  names: string[],
  fragments: Fragment[],
  select: Fragment,
  values: string[],
  prefix: string,
): string {
  let offset = 0
  const ctes = fragments.map((f, i) => {
    const cte = `"${names[i]}" AS (${shifted(f.sql, offset)})`
    offset += f.parameters.length
    return cte
  })
  const last = shifted(select.sql, offset)
  if (!values.length) return `${prefix}WITH ${ctes.join(', ')} ${last}`
  // One row at least, whatever the caller's SELECT answers: its rows, marked, beside the values.
  // A LATERAL join runs as a nested loop over the one row, so the rows keep the SELECT's order.
  const columns = values.map((value, i) => `${value} AS "${handed(i)}"`)
  return `${prefix}WITH ${ctes.join(', ')} SELECT "$s".*, ${columns.join(', ')} FROM (SELECT 1) AS "$one"
    LEFT JOIN LATERAL (SELECT *, true AS "${ROW}" FROM (${last}) AS "$select") AS "$s" ON true`
}

/**
 * Statement texts of parts that all came compiled (templates, constants), found by each part's
 * name and text in turn: the texts are a template's own strings, so each lookup hashes nothing
 * new. Parts built per call (Kysely) compose each time, and are not kept.
 */
interface Composed {
  next: Map<string, Composed>
  text?: string
}
const composedTexts: Composed = { next: new Map() }

function composedText(
  names: string[],
  fragments: Fragment[],
  select: Fragment,
  values: string[],
  prefix: string,
): string {
  let node = composedTexts
  const keys = [prefix, ...fragments.flatMap((f, i) => [names[i]!, f.sql]), select.sql, ...values]
  for (const key of keys) {
    let next = node.next.get(key)
    if (!next) {
      next = { next: new Map() }
      node.next.set(key, next)
    }
    node = next
  }
  node.text ??= compose(names, fragments, select, values, prefix)
  return node.text
}

const SELECT_NOTHING: Fragment = { sql: 'SELECT 1', parameters: [] }

/**
 * The parts as one statement, whose answer is `select` (by default nothing worth reading);
 * `endsTransaction`: marked its transaction's last (kit/db.ts ENDS_TRANSACTION).
 */
export function partsStatement(
  parts: Part[],
  select: OperationNodeSource | Fragment = SELECT_NOTHING,
  endsTransaction = false,
): CompiledQuery {
  const names = parts.map((p) => p.name)
  if (new Set(names).size !== parts.length) throw new Error('statement parts need distinct names')
  const fragments = parts.map((p) => fragmentOf(p.query))
  const last = fragmentOf(select)
  const values = handedOver(parts).map((p) => p.onCommit.value)
  const prefix = endsTransaction ? ENDS_TRANSACTION : ''
  const text =
    parts.every((p) => isFragment(p.query)) && isFragment(select)
      ? composedText(names, fragments, last, values, prefix)
      : compose(names, fragments, last, values, prefix)
  return CompiledQuery.raw(
    text,
    [...fragments, last].flatMap((f) => f.parameters),
  )
}

const handedOver = (parts: Part[]) =>
  parts.filter((p): p is Part & Required<Pick<Part, 'onCommit'>> => p.onCommit !== undefined)

/**
 * Runs the parts as one statement; the rows of `select`. `endsTransaction`: the statement is its
 * transaction's last, and commits it (kit/db.ts ENDS_TRANSACTION): nothing may run in the
 * transaction after it, and nothing the caller does after it may fail. `together`: on the pool,
 * the statement may share its transaction with other callers' (kit/db.ts runTogether), and
 * `locks` names the row others lock too that it locks (its place among them).
 */
export async function writeParts<Row = never>(
  db: Executor,
  parts: Part[],
  select?: RawBuilder<Row> | Fragment,
  {
    endsTransaction = false,
    together = false,
    locks,
  }: { endsTransaction?: boolean; together?: boolean; locks?: string } = {},
): Promise<Row[]> {
  if (!parts.length) return []
  const statement = partsStatement(parts, select, endsTransaction && db.isTransaction)
  const { rows } =
    together && !db.isTransaction
      ? await runTogether<Row>(db as Db, statement, locks)
      : await db.executeQuery<Row>(statement)
  const takers = handedOver(parts)
  if (!takers.length) return rows
  const marked = rows as Record<string, unknown>[]
  takers.forEach((part, i) => {
    const value = marked[0]![handed(i)]
    afterCommit(db, () => part.onCommit.take(value))
  })
  return marked.filter((row) => row[ROW]).map((row) => callersColumns(row, takers.length) as Row)
}

/** A row of the caller's SELECT without the columns the statement added. */
function callersColumns(row: Record<string, unknown>, values: number) {
  const own: Record<string, unknown> = { ...row }
  delete own[ROW]
  for (let i = 0; i < values; i++) delete own[handed(i)]
  return own
}
