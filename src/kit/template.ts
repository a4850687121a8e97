// Statements built and compiled once (issue 13). Building a Kysely query and compiling it to SQL
// cost the service ~15 % of a purchase's CPU, the same work on every call of the same statement.
// A template builds its query once with stand-ins for the values (slots), compiles it, and each
// call sends only the values, in the order the compiled text numbers them.
import {
  CompiledQuery,
  createQueryId,
  DummyDriver,
  Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  type RootOperationNode,
  sql,
} from 'kysely'
import { type Db, type Executor, runTogether } from './db.ts'
import type { DB } from './db-schema.ts'

/** Kysely without a connection: it only builds and compiles. */
export const compiler = new Kysely<DB>({
  dialect: {
    createAdapter: () => new PostgresAdapter(),
    createDriver: () => new DummyDriver(),
    createIntrospector: (db) => new PostgresIntrospector(db),
    createQueryCompiler: () => new PostgresQueryCompiler(),
  },
})

/** A query (a Kysely builder or `sql`) made of the values `v`. */
type Build<V, Row> = (
  q: Kysely<DB>,
  v: V,
) => { toOperationNode(): RootOperationNode; compile(...args: never[]): CompiledQuery<Row> }

/** A value's stand-in while its template is built. */
class Slot {
  constructor(readonly key: string) {}
  // A build that reads a value (`${v.x}`, `v.x + 1`) would bake the stand-in into the text.
  [Symbol.toPrimitive](): never {
    throw new Error(`template value "${this.key}" used while building; pass it as a value`)
  }
}

/** Stand-ins for every key of V, typed as V so the builder type-checks as with real values. */
function slots<V>(): V {
  const made = new Map<string, Slot>()
  return new Proxy({} as object, {
    get(_, key) {
      if (typeof key !== 'string') return undefined
      const slot = made.get(key) ?? new Slot(key)
      made.set(key, slot)
      return slot
    },
    // `{ ...v }` or `values(v)` would list no keys, silently: each value must be named.
    ownKeys() {
      throw new Error('template values cannot be listed or spread; name each one')
    },
  }) as V
}

export interface Compiled {
  sql: string
  /** Per parameter: the value's key, or a constant the builder wrote. */
  sources: (string | { constant: unknown })[]
}

/** Compiles a query built with slots: its text, and where each parameter comes from. */
export function compileTemplate<V>(build: Build<V, unknown>): Compiled {
  const node = build(compiler, slots<V>()).toOperationNode()
  const { sql, parameters } = compiler.getExecutor().compileQuery(node, createQueryId())
  return {
    sql,
    sources: parameters.map((p) => (p instanceof Slot ? p.key : { constant: p })),
  }
}

/** The parameters of a compiled template for these values (an optional one left out: null). */
function parametersOf(compiled: Compiled, values: object): unknown[] {
  const record = values as Record<string, unknown>
  return compiled.sources.map((s) => (typeof s === 'string' ? (record[s] ?? null) : s.constant))
}

/**
 * A compiled statement with its parameters: what a template gives for one call's values, or a
 * constant. Its text is one of a few (writeParts keeps the statements it composes by text):
 * SQL made per call is a Kysely builder's job, not a fragment's.
 */
export interface Fragment {
  /** Numbers its parameters from $1; no other `$` and digit (writeParts renumbers them). */
  sql: string
  parameters: readonly unknown[]
}

/**
 * A statement whose values are `V`, compiled on first use. The builder must not look at a value
 * (no `if (v.x)`): it runs once, with stand-ins. A shape that depends on the input (which
 * optional columns, how many rows) is a template per shape, or one statement taking arrays.
 */
export function fragmentTemplate<V extends object>(
  build: Build<V, unknown>,
): (values: V) => Fragment {
  let compiled: Compiled | null = null
  return (values) => {
    compiled ??= compileTemplate(build)
    return { sql: compiled.sql, parameters: parametersOf(compiled, values) }
  }
}

/** The condition of a fragmentTemplatePer statement that has none: it always holds. */
export const ALWAYS = sql<boolean>`true`

/**
 * fragmentTemplate per SQL condition the text holds (a RawBuilder, not a value): each compiled
 * once, on first use. A condition that carries values of its own is compiled for each such
 * object, so it stays correct, only not cheap: conditions are meant to be module constants.
 */
export function fragmentTemplatePer<K extends object, V extends object>(
  build: (q: Kysely<DB>, v: V, condition: K) => ReturnType<Build<V, unknown>>,
): (condition: K) => (values: V) => Fragment {
  const made = new WeakMap<K, (values: V) => Fragment>()
  return (condition) => {
    let fragment = made.get(condition)
    if (!fragment) {
      fragment = fragmentTemplate((q, v: V) => build(q, v, condition))
      made.set(condition, fragment)
    }
    return fragment
  }
}

/** Runs a fragment as a statement of its own: its rows. */
export async function runFragment<Row>(db: Executor, { sql, parameters }: Fragment) {
  return (await db.executeQuery<Row>(CompiledQuery.raw(sql, [...parameters]))).rows
}

/**
 * fragmentTemplate, run: the statement's rows for these values. `together`: a statement that is
 * its own transaction, outside one, may share it with other callers' (kit/db.ts runTogether).
 */
export function template<V extends object, Row>(
  build: Build<V, Row>,
  { together = false } = {},
): (db: Executor, values: V) => Promise<Row[]> {
  const fragment = fragmentTemplate(build)
  return async (db, values) => {
    const { sql, parameters } = fragment(values)
    const query = CompiledQuery.raw(sql, [...parameters])
    const { rows } =
      together && !db.isTransaction
        ? await runTogether<Row>(db as Db, query)
        : await db.executeQuery<Row>(query)
    return rows
  }
}
