import { mkdirSync, readdirSync, readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { PGlite } from '@electric-sql/pglite'
import { type CompiledQuery, Kysely, PostgresDialect, sql, type Transaction } from 'kysely'
import pg from 'pg'
import { collectHooks } from './after-commit.ts'
import type { DB } from './db-schema.ts'
import { Coalescer } from './pg-coalescer.ts'
import { sharedListener } from './pg-listener.ts'
import { type Around, PipelinedRuns } from './pg-pipeline.ts'
import {
  ENDS_TRANSACTION,
  PreparedRun,
  type RunResult,
  type TypeParserOf,
  type WireConnection,
} from './pg-prepared.ts'
import { type Body, SharedTransactions } from './pg-shared-tx.ts'
import { timestamptzParser } from './pg-timestamp.ts'
import { PGliteDialect } from './pglite-dialect.ts'

export type Db = Kysely<DB>
export type Tx = Transaction<DB>
/** Either the pool or an open transaction: what repos accept for reads. */
export type Executor = Db | Tx

export interface Database {
  db: Db
  /**
   * The same database, committing without waiting for its log to reach the disk (PostgreSQL's
   * `synchronous_commit = off`; PGlite: `db` itself): for bookkeeping whose loss, should the
   * database server crash in the next fraction of a second, only repeats work — a worker's
   * claims and marks on the outbox (a mail or webhook sent once more, at least once as ever),
   * a rate limit's count, an idempotency key (why that is safe: kit/http/idempotency.ts). Never
   * for money, orders or anything a person was told happened.
   */
  relaxed: Db
  driver: 'pglite' | 'postgres'
  /** Runs a multi-statement SQL script in one transaction on one connection (migrations). */
  execInTx(script: string): Promise<void>
  /**
   * Calls `onNotify` with the payload of every `NOTIFY channel` committed by any process. A
   * lost connection (`onLost`, PostgreSQL only) loses the notifications from then on: callers
   * keep polling as a fallback. PostgreSQL: every channel on one connection (kit/pg-listener.ts).
   */
  listen(
    channel: string,
    onNotify: (payload: string) => void,
    onLost?: () => void,
  ): Promise<Listener>
  /** PGlite only: its data directory as an uncompressed tarball, for `snapshot` to load. */
  dump?(): Promise<Blob>
  close(): Promise<void>
}

export interface Listener {
  /**
   * Resolves once every notification committed before the call has reached `onNotify` (a round
   * trip on the listening connection: PostgreSQL sends what is pending before it answers).
   */
  sync(): Promise<void>
  close(): Promise<void>
}

const INT8 = 20
const NUMERIC = 1700
const TIMESTAMPTZ = 1184
const readTimestamptz = timestamptzParser(pg.types.getTypeParser(TIMESTAMPTZ, 'text'))

/** int8 as a JS number, refusing values a number cannot hold exactly. */
function parseInt8(text: string): number {
  const value = Number(text)
  if (!Number.isSafeInteger(value)) throw new RangeError(`int8 out of safe range: ${text}`)
  return value
}

/**
 * Connections of the relaxed-commit pool: the workers' outbox writes, rate-limit counts,
 * idempotency keys and the sandbox's books.
 */
const RELAXED_POOL = 4

/**
 * A pooled connection is replaced after this long (when next idle). Its prepared statements'
 * generic plans were made for the tables as they were then: a plan made while a table was
 * tiny (a sequential scan of `emails` for `id = ANY($1)`) stays until the table's statistics
 * change, which needs autovacuum, and reads the whole table at every run as it grows. A new
 * connection plans for the tables as they are. Ten minutes: a handful of reconnections and
 * re-plannings per connection an hour.
 */
const CONNECTION_LIFETIME_SECONDS = 600

/**
 * The start of a statement PostgreSQL plans anew on every run (it runs unnamed, not prepared):
 * one whose right plan depends on a table's size, which keeps changing under a long-lived
 * connection. A batch update of outbox rows by id, prepared while the table was tiny, keeps a
 * generic plan that scans the whole table at every run as it grows (launch bench, 2026-11-27:
 * the born mails' sent marks, ten a second, each reading every mail).
 */
export const PLANNED_EACH_RUN = '/* planned each run */ '

/** Distinct statement texts given a prepared-statement name; beyond, texts run unnamed. */
const MAX_PREPARED = 2_000
const preparedNames = new Map<string, string>()

export { ENDS_TRANSACTION }

/** Where a PreparingClient's transaction stands. */
type TxState =
  /** No transaction. */
  | 'none'
  /** `begin` answered, nothing sent yet. */
  | 'held'
  /** BEGIN sent. */
  | 'open'
  /** Committed with its last statement; withTx's COMMIT is still to come. */
  | 'ended'

/**
 * A pg client that prepares each parameterized statement once per connection (a named
 * statement) instead of having PostgreSQL parse and plan its text on every run: the same few
 * dozen statements make every purchase. Statements without parameters (scripts, COMMIT) go as
 * before, by the simple protocol. Not for transaction-mode poolers (PgBouncer before 1.21),
 * which cannot keep a connection's prepared statements: DATABASE_PREPARED_STATEMENTS=0 there.
 *
 * Kysely's `begin` is held back and sent with the transaction's first statement, in one round
 * trip (kit/pg-prepared.ts); a transaction that ends before any statement sends nothing. A
 * statement marked ENDS_TRANSACTION takes the COMMIT with it.
 */
class PreparingClient extends pg.Client {
  private readonly parserOf: TypeParserOf = (oid) => this.getTypeParser(oid, 'text')
  private tx: TxState = 'none'

  // biome-ignore lint/suspicious/noExplicitAny: pg's overloads, passed through unchanged
  override query(config: any, values?: any, callback?: any): any {
    if (this.tx === 'held') return this.afterHeldBegin(config, values, callback)
    if (this.tx === 'ended') return this.afterEnded(config)
    if (config === 'begin' && !values?.length && !callback) {
      this.tx = 'held'
      return Promise.resolve({ command: 'BEGIN', rowCount: null, rows: [] })
    }
    if (config === 'commit' || config === 'rollback') this.tx = 'none'
    const name = this.nameOf(config, values)
    if (name && !callback) {
      const last = this.tx === 'open' && endsTransaction(config)
      return this.run(name, config, values, { begin: false, commit: last, last })
    }
    if (name) return super.query({ name, text: config, values }, callback)
    return super.query(config, values, callback)
  }

  /**
   * The statement's run for a pipeline (kit/pg-pipeline.ts), outside a transaction; null when
   * it cannot go in one on this connection yet (not prepared, described and typed here).
   */
  pipelineMember(text: string, values: readonly unknown[]): PreparedRun | null {
    if (this.tx !== 'none') return null
    const name = this.nameOf(text, values)
    const wire = this.connection as unknown as WireConnection
    if (!name || !PreparedRun.readyOn(wire, name)) return null
    return new PreparedRun(name, text, [...values], this.parserOf)
  }

  /**
   * The members in one round trip: one implicit transaction, or part of an explicit one that
   * `around` may open and close. Each member's own result.
   */
  runPipeline(members: PreparedRun[], around?: Around): Promise<Promise<RunResult>[]> {
    const pipeline = new PipelinedRuns(members, around)
    super.query(pipeline as unknown as pg.Submittable)
    return pipeline.promise
  }

  /** Drops a held `begin` of a transaction that never ran a statement (pool release). */
  forgetHeldBegin() {
    this.tx = 'none'
  }

  private afterHeldBegin(config: unknown, values: unknown[] | undefined, callback: unknown) {
    if ((config === 'commit' || config === 'rollback') && !callback) {
      this.tx = 'none'
      return Promise.resolve({ command: config.toUpperCase(), rowCount: null, rows: [] })
    }
    const name = this.nameOf(config, values)
    if (name && !callback && endsTransaction(config)) {
      // The transaction's one statement: it commits on its own, with no BEGIN or COMMIT.
      return this.run(name, config as string, values!, { begin: false, commit: false, last: true })
    }
    if (name && !callback && this.parsed(name)) {
      this.tx = 'open'
      return this.run(name, config as string, values!, { begin: true, commit: false, last: false })
    }
    // Anything else waits for a BEGIN of its own, as without holding.
    this.tx = 'open'
    return super.query('BEGIN').then(() => this.query(config, values, callback))
  }

  /** After the statement that committed: withTx's COMMIT (or a ROLLBACK) is answered here. */
  private afterEnded(config: unknown) {
    if (config === 'commit' || config === 'rollback') {
      this.tx = 'none'
      return Promise.resolve({ command: 'COMMIT', rowCount: null, rows: [] })
    }
    return Promise.reject(new Error('a statement after the one that ended its transaction'))
  }

  private parsed(name: string): boolean {
    const connection = this.connection as unknown as { parsedStatements: Record<string, string> }
    return connection.parsedStatements[name] !== undefined
  }

  /** The prepared-statement name of a parameterized text; null: it runs unnamed. */
  private nameOf(config: unknown, values: readonly unknown[] | undefined): string | null {
    if (typeof config !== 'string' || !Array.isArray(values) || values.length === 0) return null
    if (config.startsWith(PLANNED_EACH_RUN)) return null
    let name = preparedNames.get(config)
    if (!name && preparedNames.size < MAX_PREPARED) {
      name = `v${preparedNames.size}`
      preparedNames.set(config, name)
    }
    return name ?? null
  }

  private run(
    name: string,
    text: string,
    values: unknown[],
    /** BEGIN sent ahead of it, COMMIT after it; `last`: the transaction ends with it. */
    how: { begin: boolean; commit: boolean; last: boolean },
  ) {
    const run = new PreparedRun(name, text, values, this.parserOf, how.begin, how.commit)
    super.query(run as unknown as pg.Submittable)
    if (!how.last) return run.promise
    // Committed once it answered; a failed one left nothing (alone in its transaction) or a
    // failed transaction open for the ROLLBACK to come (its COMMIT did not run).
    return run.promise.then((result) => {
      this.tx = 'ended'
      return result
    })
  }
}

const endsTransaction = (text: unknown) =>
  typeof text === 'string' && text.startsWith(ENDS_TRANSACTION)

/**
 * PGlite (embedded, in `dataDir` or in memory when dataDir is null) unless a
 * PostgreSQL URL is given. Both return int8 as number and numeric as string.
 */
export async function openDatabase(opts: {
  databaseUrl?: string | undefined
  dataDir?: string | null
  /** PGlite: starts from this dumped data directory (`dumpDataDir`) instead of an empty one. */
  snapshot?: Blob
  poolSize?: number
  /** PostgreSQL: prepare each parameterized statement once per connection (default true). */
  preparedStatements?: boolean
  /** PostgreSQL: seconds before a pooled connection is replaced (tests shorten it). */
  connectionLifetimeSeconds?: number
}): Promise<Database> {
  if (opts.databaseUrl) {
    const poolOf = (max: number, options?: string) => {
      const pool = new pg.Pool({
        Client: opts.preparedStatements === false ? pg.Client : PreparingClient,
        connectionString: opts.databaseUrl,
        max,
        maxLifetimeSeconds: opts.connectionLifetimeSeconds ?? CONNECTION_LIFETIME_SECONDS,
        ...(options && { options }),
        types: {
          getTypeParser: ((oid: number, format?: 'text' | 'binary') => {
            if (oid === INT8) return parseInt8
            if (oid === NUMERIC) return (text: string) => text
            if (oid === TIMESTAMPTZ && format !== 'binary') return readTimestamptz
            return pg.types.getTypeParser(oid, format)
          }) as typeof pg.types.getTypeParser,
        },
      })
      // An idle connection the server ended (a restart, an idle timeout) is dropped by the pool,
      // which then emits the error: heard here, else it would end the process. The next
      // statement opens another connection.
      pool.on('error', () => {})
      // A connection goes back without a transaction it may have left unsent.
      pool.on('release', (_error, client) => {
        if (client instanceof PreparingClient) client.forgetHeldBegin()
      })
      return pool
    }
    const pool = poolOf(opts.poolSize ?? 10)
    const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool }) })
    const relaxedPool = poolOf(RELAXED_POOL, '-c synchronous_commit=off')
    const relaxed = new Kysely<DB>({ dialect: new PostgresDialect({ pool: relaxedPool }) })
    if (opts.preparedStatements !== false) {
      coalescers.set(db, new Coalescer(pool))
      coalescers.set(relaxed, new Coalescer(relaxedPool))
      sharers.set(db, new SharedTransactions(pool, (fn) => withTx(db, fn), sharedBy))
    }
    return {
      db,
      relaxed,
      driver: 'postgres',
      async execInTx(script) {
        const client = await pool.connect()
        try {
          await client.query('BEGIN')
          await client.query(script)
          await client.query('COMMIT')
        } catch (error) {
          await client.query('ROLLBACK')
          throw error
        } finally {
          client.release()
        }
      },
      listen: sharedListener(opts.databaseUrl),
      close: async () => {
        await Promise.all([db.destroy(), relaxed.destroy()])
        // Kysely ends the pool only if it ever took a connection from it: the coalescers take
        // theirs without it.
        if (!pool.ending) await pool.end()
        if (!relaxedPool.ending) await relaxedPool.end()
      },
    }
  }
  if (opts.dataDir) mkdirSync(opts.dataDir, { recursive: true })
  const pglite = await PGlite.create({
    ...(opts.dataDir ? { dataDir: opts.dataDir } : {}),
    ...(opts.snapshot ? { loadDataDir: opts.snapshot } : {}),
    parsers: { [INT8]: parseInt8, [NUMERIC]: (text: string) => text },
  })
  const db = new Kysely<DB>({ dialect: new PGliteDialect(pglite) })
  return {
    db,
    relaxed: db,
    driver: 'pglite',
    async execInTx(script) {
      // Through Kysely's connection so the script waits its turn on the single connection.
      await db.connection().execute(async () => {
        await pglite.transaction(async (tx) => {
          await tx.exec(script)
        })
      })
    },
    async listen(channel, onNotify) {
      // Queued behind Kysely's transactions on the single connection, like every query.
      const unlisten = await db.connection().execute(() => pglite.listen(channel, onNotify))
      return {
        // PGlite hands a statement's notifications over as it returns: a statement queued
        // behind the callers' is past them.
        sync: async () => {
          await sql`SELECT 1`.execute(db)
        },
        close: () => unlisten(),
      }
    },
    dump: () => db.connection().execute(() => pglite.dumpDataDir('none')),
    close: () => db.destroy(),
  }
}

const coalescers = new WeakMap<Db, Coalescer>()

/**
 * Runs a statement that is its own transaction, on PostgreSQL together with others that wait
 * for a connection at the same moment (kit/pg-coalescer.ts): for writes that can share a
 * transaction with another caller's and that, refused, leave nothing. `locks`: a row other
 * callers lock too, which the statement locks (its place in the batch). PGlite: as any statement.
 */
export async function runTogether<Row>(
  db: Db,
  query: CompiledQuery,
  locks?: string,
): Promise<{ rows: Row[] }> {
  const coalescer = coalescers.get(db)
  if (!coalescer) return db.executeQuery<Row>(query)
  return (await coalescer.run(query, locks)) as unknown as { rows: Row[] }
}

const sharers = new WeakMap<Db, SharedTransactions>()
/** Each caller's transaction taking part in a shared one (withTxTogether): that shared one. */
const sharedBy = new WeakMap<Tx, object>()

/** The database transaction `tx` runs in: the one it shares with others', else its own. */
export const transactionOf = (tx: Tx): object => sharedBy.get(tx) ?? tx

/**
 * withTx for a transaction that may share one database transaction with others waiting for a
 * connection at the same moment (kit/pg-shared-tx.ts): for a short transaction run at a high
 * rate, all of whose writes may commit with other callers' and which, refused, may run again.
 * `fn` may run twice: once in the shared transaction, which rolls back, then alone. PGlite, or
 * unprepared statements: withTx.
 */
export function withTxTogether<T>(db: Db, fn: Body<T>): Promise<T> {
  const sharer = sharers.get(db)
  return sharer ? sharer.run(fn) : withTx(db, fn)
}

/**
 * The one way to open a transaction. Services receive `tx` and never commit. What they asked to
 * run after the commit (kit/after-commit.ts) runs once it answered, before this resolves.
 */
export async function withTx<T>(db: Db, fn: (tx: Tx) => Promise<T>): Promise<T> {
  let committed = () => {}
  const result = await db.transaction().execute((tx) => {
    committed = collectHooks(tx)
    return fn(tx)
  })
  committed()
  return result
}

const MIGRATIONS_DIR = join(dirname(fileURLToPath(import.meta.url)), 'migrations')
// Any constant: serializes migrations when several processes start at once.
const MIGRATION_LOCK = 'SELECT pg_advisory_xact_lock(727140001);'
const ALREADY_APPLIED = 'vitrine:already-applied'

/** Applies every migrations/*.sql not yet applied, in name order, each in its own transaction. */
export async function migrate(database: Database): Promise<string[]> {
  await database.execInTx(
    `${MIGRATION_LOCK} CREATE TABLE IF NOT EXISTS schema_migrations (name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now());`,
  )
  // Known applied files are skipped without a transaction each: a restart costs one read.
  const known = await sql<{ name: string }>`SELECT name FROM schema_migrations`.execute(database.db)
  const done = new Set(known.rows.map((row) => row.name))
  const files = readdirSync(MIGRATIONS_DIR)
    .filter((f) => /^[\w.-]+\.sql$/.test(f) && !done.has(f))
    .sort()
  const applied: string[] = []
  for (const file of files) {
    const body = readFileSync(join(MIGRATIONS_DIR, file), 'utf8')
    // Checked again under the lock, so two processes never apply the same file.
    const script = `${MIGRATION_LOCK}
      DO $$ BEGIN
        IF EXISTS (SELECT 1 FROM schema_migrations WHERE name = '${file}') THEN
          RAISE EXCEPTION '${ALREADY_APPLIED}';
        END IF;
      END $$;
      ${body}
      ;INSERT INTO schema_migrations (name) VALUES ('${file}');`
    try {
      await database.execInTx(script)
      applied.push(file)
    } catch (error) {
      if (!String((error as Error).message).includes(ALREADY_APPLIED)) throw error
    }
  }
  return applied
}
