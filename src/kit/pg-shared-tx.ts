// Short transactions of several callers (a launch's paid callbacks), waiting for a connection
// at the same moment, run as one database transaction (issue 13): they share its BEGIN, its
// round trips and its one COMMIT, where each alone paid its own. Each caller's function runs as
// written, in a Kysely transaction of its own; their statements reach the connection a round at
// a time: once every caller still running waits on a statement, those statements go in one
// pipeline (kit/pg-pipeline.ts), the first round after the BEGIN, and the COMMIT goes with the
// last round when each of its statements ends its caller's transaction (ENDS_TRANSACTION).
// A later caller's statement sees an earlier one's rows, as it would once that committed.
// When anything fails before the COMMIT (PostgreSQL refuses a statement, a caller throws, the
// connection fails), the shared transaction rolls back and each caller runs again alone, so a
// failure is its own caller's and every other caller commits as if it had gone alone. Should
// the connection fail while the COMMIT is under way, whether it happened is unknown: every
// caller hears the error, as from a lone transaction.
import {
  type CompiledQuery,
  type DatabaseConnection,
  type Driver,
  Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  type QueryResult,
} from 'kysely'
import type pg from 'pg'
import { collectHooks } from './after-commit.ts'
import type { Tx } from './db.ts'
import type { DB } from './db-schema.ts'
import { Gathering, type PipeliningClient } from './pg-coalescer.ts'
import { keepsConnection, PipelineFailed } from './pg-pipeline.ts'
import { ENDS_TRANSACTION, type RunResult } from './pg-prepared.ts'

export type Body<T = unknown> = (tx: Tx) => Promise<T>

interface Call {
  fn: Body
  resolve(value: unknown): void
  reject(error: unknown): void
}

export class SharedTransactions extends Gathering<Call> {
  constructor(
    pool: pg.Pool,
    /** Runs a caller's function in a transaction of its own (withTx). */
    private readonly alone: (fn: Body) => Promise<unknown>,
    /** Where each caller's transaction is mapped to the shared one (kit/db.ts transactionOf). */
    private readonly sharedBy: WeakMap<Tx, object>,
  ) {
    super(pool)
  }

  run<T>(fn: Body<T>): Promise<T> {
    return new Promise((resolve, reject) => {
      this.enqueue({ fn, resolve: resolve as (value: unknown) => void, reject })
    })
  }

  protected async send(client: PipeliningClient, calls: Call[]) {
    const shared = new SharedTransaction(client, calls.length)
    const db = new Kysely<DB>({ dialect: shared.dialect })
    const ends = await Promise.allSettled(
      calls.map((call) =>
        db.transaction().execute(async (tx) => {
          this.sharedBy.set(tx, shared)
          const committed = collectHooks(tx)
          return { value: await call.fn(tx), committed }
        }),
      ),
    )
    client.release(shared.broken)
    // A caller that went alone failed as it would have in withTx: nothing to run again.
    if (shared.outcome === 'rolled back' && calls.length > 1) {
      for (const call of calls) this.alone(call.fn).then(call.resolve, call.reject)
      return
    }
    ends.forEach((end, i) => {
      const call = calls[i]!
      if (end.status === 'rejected') {
        call.reject(end.reason)
        return
      }
      end.value.committed()
      call.resolve(end.value.value)
    })
  }
}

/** Why a caller's statement did not run: the shared transaction failed before it. */
class SharedTransactionFailed extends Error {
  constructor(override readonly cause: unknown) {
    super(`shared transaction failed: ${(cause as Error)?.message ?? cause}`)
  }
}

interface Statement {
  query: CompiledQuery
  resolve(result: QueryResult<unknown>): void
  reject(error: unknown): void
}

/** A caller's connection, as Kysely sees it: its statements go to the shared transaction's. */
class CallerConnection implements DatabaseConnection {
  /** Committed or rolled back, as far as its caller is concerned. */
  left = false

  constructor(private readonly shared: SharedTransaction) {}

  executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    return this.shared.execute(query) as Promise<QueryResult<R>>
  }

  // biome-ignore lint/correctness/useYield: nothing to stream
  async *streamQuery(): AsyncIterableIterator<never> {
    throw new Error('a shared transaction streams nothing')
  }
}

/** One database transaction on one connection, and Kysely's driver of its callers. */
class SharedTransaction implements Driver {
  readonly dialect = {
    createDriver: () => this,
    createAdapter: () => new PostgresAdapter(),
    createQueryCompiler: () => new PostgresQueryCompiler(),
    createIntrospector: (db: Kysely<unknown>) => new PostgresIntrospector(db),
  }
  outcome: 'open' | 'committed' | 'rolled back' | 'unknown' = 'open'
  /** The connection failed: the pool drops it. */
  broken: Error | undefined
  /** The statements of the round to come, one a caller. */
  private round: Statement[] = []
  private sending = false
  private begun = false
  /** Why the transaction cannot commit, once it cannot. */
  private failure: unknown = null
  private readonly ended: Promise<void>
  private end!: { resolve(): void; reject(error: unknown): void }

  constructor(
    private readonly client: PipeliningClient,
    /** Callers neither committed nor rolled back. */
    private running: number,
  ) {
    this.ended = new Promise((resolve, reject) => {
      this.end = { resolve, reject }
    })
    // Heard through every caller's commit; a batch whose callers all threw has none.
    this.ended.catch(() => {})
  }

  async init() {}
  async destroy() {}
  async acquireConnection() {
    return new CallerConnection(this)
  }
  async beginTransaction() {}
  async releaseConnection() {}

  /** A caller is done: it waits for the shared COMMIT. */
  commitTransaction(connection: CallerConnection): Promise<void> {
    this.leave(connection)
    return this.ended
  }

  /**
   * A caller threw (or heard the shared transaction fail): it cannot commit as it is. Resolves
   * once the transaction ended, so that its outcome is known when every caller's is.
   */
  async rollbackTransaction(connection: CallerConnection) {
    if (!connection.left) {
      // After the COMMIT went with its last statement, as in a lone transaction: nothing undone.
      if (this.outcome === 'open') this.fail(new Error('a caller of the transaction threw'))
      this.leave(connection)
    }
    await this.ended.catch(() => {})
  }

  execute(query: CompiledQuery): Promise<QueryResult<unknown>> {
    if (this.failure) return Promise.reject(new SharedTransactionFailed(this.failure))
    return new Promise((resolve, reject) => {
      this.round.push({ query, resolve, reject })
      this.next()
    })
  }

  private leave(connection: CallerConnection) {
    connection.left = true
    this.running--
    this.next()
  }

  private fail(error: unknown) {
    this.failure ??= error
    for (const statement of this.round.splice(0)) {
      statement.reject(new SharedTransactionFailed(error))
    }
  }

  /** Sends the round once every running caller waits on it; ends once none is running. */
  private next() {
    if (this.sending || this.round.length < this.running) return
    if (this.round.length) void this.send(this.round.splice(0))
    else void this.finish()
  }

  private async send(statements: Statement[]) {
    this.sending = true
    const opens = !this.begun
    // Every running caller is in the round: when each statement ends its caller's
    // transaction, nothing runs after them.
    const closes = statements.every((s) => s.query.sql.startsWith(ENDS_TRANSACTION))
    this.begun = true
    let results: Promise<RunResult>[] | undefined
    try {
      results = await this.run(
        statements.map((s) => s.query),
        opens,
        closes,
      )
      if (closes) this.outcome = 'committed'
    } catch (error) {
      const failed = error as PipelineFailed
      if (!failed.rolledBack) {
        this.broken = failed.cause as Error
        if (closes) this.outcome = 'unknown'
      }
      this.fail(failed.cause)
    }
    this.sending = false
    statements.forEach((statement, i) => {
      const result = results?.[i]
      if (result) result.then((r) => statement.resolve(queryResult(r)), statement.reject)
      else statement.reject(this.failure)
    })
  }

  /** The round's statements, in one pipeline when each is prepared on the connection. */
  private async run(queries: CompiledQuery[], opens: boolean, closes: boolean) {
    const texts = queries.map((q) => withoutEnd(q.sql))
    const members = queries.map((q, i) => this.client.pipelineMember(texts[i]!, q.parameters))
    if (members.every((m) => m !== null)) {
      return this.client.runPipeline(members, {
        opensTransaction: opens,
        closesTransaction: closes,
      })
    }
    // A statement's first run on this connection, which prepares it: one at a time.
    try {
      if (opens) await this.client.query('BEGIN')
      const results: Promise<RunResult>[] = []
      for (const [i, q] of queries.entries()) {
        results.push(Promise.resolve(await this.client.query(texts[i]!, [...q.parameters])))
      }
      if (closes) await this.client.query('COMMIT')
      return results
    } catch (error) {
      throw new PipelineFailed(error, keepsConnection(error))
    }
  }

  /** Every caller left: the COMMIT, unless it went with the last round, or the ROLLBACK. */
  private async finish() {
    if (this.outcome === 'committed') return this.end.resolve()
    if (this.outcome === 'unknown') return this.end.reject(this.failure)
    if (!this.failure) {
      try {
        if (this.begun) await this.client.query('COMMIT')
        this.outcome = 'committed'
        return this.end.resolve()
      } catch (error) {
        this.failure = error
        if (!keepsConnection(error)) {
          this.broken = error as Error
          this.outcome = 'unknown'
          return this.end.reject(error)
        }
      }
    }
    if (this.begun && !this.broken) {
      await this.client.query('ROLLBACK').catch((error: Error) => {
        this.broken = error
      })
    }
    this.outcome = 'rolled back'
    this.end.reject(this.failure)
  }
}

const withoutEnd = (text: string) =>
  text.startsWith(ENDS_TRANSACTION) ? text.slice(ENDS_TRANSACTION.length) : text

/** pg's result as Kysely's own PostgreSQL driver gives it. */
function queryResult(result: RunResult): QueryResult<unknown> {
  const changes = ['INSERT', 'UPDATE', 'DELETE', 'MERGE'].includes(result.command ?? '')
  return {
    rows: result.rows,
    ...(changes && { numAffectedRows: BigInt(result.rowCount ?? 0) }),
  }
}
