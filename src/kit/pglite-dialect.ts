// Kysely dialect for PGlite. Kysely ships one only from 0.29, which requires Node 22; this is
// its driver ported to Kysely 0.28 (Node 20). Two guarantees are kept from 0.29:
// - PGlite is one connection, held by one caller at a time: a query, a whole transaction or a
//   `db.connection()` block waits its turn in a FIFO queue (0.29 does this in Kysely's core).
// - A transaction runs inside `pglite.transaction()`, PGlite's exclusive mode, so nothing
//   outside Kysely slips a statement into it; and a COMMIT that the database turned into a
//   ROLLBACK throws `AbortedTransactionError`, as on PostgreSQL.
import type { PGlite, Transaction as PGliteTransaction } from '@electric-sql/pglite'
import {
  AbortedTransactionError,
  type CompiledQuery,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  type Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  type QueryResult,
} from 'kysely'

/** PostgreSQL's "in failed SQL transaction": PGlite's error when COMMIT rolled back instead. */
const IN_FAILED_TRANSACTION = '25P02'

export class PGliteDialect implements Dialect {
  constructor(private readonly pglite: PGlite) {}
  createAdapter = () => new PostgresAdapter()
  createDriver = (): Driver => new PGliteDriver(this.pglite)
  createIntrospector = (db: Kysely<unknown>) => new PostgresIntrospector(db)
  createQueryCompiler = () => new PostgresQueryCompiler()
}

class PGliteDriver implements Driver {
  readonly #pglite: PGlite
  readonly #connection: PGliteConnection
  /** Settles when the current holder releases the connection; the next caller waits on it. */
  #released: Promise<void> = Promise.resolve()
  #release = () => {}

  constructor(pglite: PGlite) {
    this.#pglite = pglite
    this.#connection = new PGliteConnection(pglite)
  }

  async init() {}

  async acquireConnection(): Promise<DatabaseConnection> {
    const previous = this.#released
    let release = () => {}
    this.#released = new Promise((resolve) => {
      release = resolve
    })
    await previous
    this.#release = release
    return this.#connection
  }

  async releaseConnection() {
    this.#release()
  }

  // Kysely hands back the connection it acquired, which is always our only one.
  beginTransaction = () => this.#connection.begin()
  commitTransaction = () => this.#connection.commit()
  rollbackTransaction = () => this.#connection.rollback()

  async destroy() {
    if (!this.#pglite.closed) await this.#pglite.close()
  }
}

class PGliteConnection implements DatabaseConnection {
  readonly #pglite: PGlite
  /** The open transaction, how to end it (commit or not), and PGlite's promise of its end. */
  #tx: PGliteTransaction | null = null
  #end: ((commit: boolean) => void) | null = null
  #ended: Promise<void> = Promise.resolve()

  constructor(pglite: PGlite) {
    this.#pglite = pglite
  }

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    const { affectedRows, rows } = await (this.#tx ?? this.#pglite).query<R>(
      query.sql,
      [...query.parameters],
      { rowMode: 'object' },
    )
    return { numAffectedRows: affectedRows == null ? undefined : BigInt(affectedRows), rows }
  }

  // biome-ignore lint/correctness/useYield: PGlite cannot stream; Kysely requires the method.
  async *streamQuery(): AsyncIterableIterator<QueryResult<never>> {
    throw new Error('Streaming is not supported by PGlite.')
  }

  /** Opens `pglite.transaction()` and holds it open until `commit` or `rollback` ends it. */
  begin(): Promise<void> {
    return new Promise((begun, failed) => {
      this.#ended = this.#pglite.transaction(
        (tx) =>
          new Promise<void>((commit, rollback) => {
            this.#tx = tx
            this.#end = (ok) => (ok ? commit() : rollback(new Error('Rolled back by Kysely')))
            begun()
          }),
      )
      this.#ended.catch(failed) // only matters if BEGIN failed; later `begun` already settled it
    })
  }

  async commit() {
    try {
      await this.#close(true)
    } catch (error) {
      if ((error as { code?: unknown } | null)?.code === IN_FAILED_TRANSACTION) {
        throw new AbortedTransactionError()
      }
      throw error
    }
  }

  async rollback() {
    await this.#close(false).catch(() => {}) // PGlite rethrows the rollback `#end(false)` asked for
  }

  #close(commit: boolean): Promise<void> {
    this.#end?.(commit)
    this.#tx = null
    this.#end = null
    return this.#ended
  }
}
