import { randomBytes } from 'node:crypto'
import { readdirSync } from 'node:fs'
import { AbortedTransactionError, sql } from 'kysely'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { loadConfig } from '../../src/config.ts'
import { type Executor, migrate, openDatabase, PLANNED_EACH_RUN, withTx } from '../../src/kit/db.ts'
import { writeParts } from '../../src/kit/statement.ts'
import { ledgerRepo } from '../../src/modules/ledger/repo.ts'
import { paymentsRepo } from '../../src/modules/payments/repo.ts'
import { subscriptionsRepo } from '../../src/modules/subscriptions/repo.ts'
import { startService } from '../../src/service.ts'
import { createTestDatabase, engine, type TestDatabase } from '../setup/database.ts'
import { TEST_ENV } from '../setup/service.ts'

const USER = '0192f3a4-5b6c-7d8e-9fa0-b1c2d3e4f5a6'
/** The pollers that read a partial index, each with the index it must be able to use. */
const POLLS: { index: string; run(db: Executor): Promise<unknown> }[] = [
  {
    index: 'orders_pending_expiry_idx',
    run: (db) => paymentsRepo.dueForExpiry(db, new Date(), 10),
  },
  {
    index: 'subscriptions_due_idx',
    run: (db) => subscriptionsRepo.findDue(db, new Date(), 10),
  },
  {
    index: 'order_shares_free_idx',
    run: (db) => ledgerRepo.freeShares(db, 'commission', USER, 10),
  },
  {
    index: 'order_shares_debt_idx',
    run: (db) => ledgerRepo.debtPieces(db, 'commission', USER),
  },
]

/**
 * A one-connection database whose round trips are counted (each pg Client#query is one, of
 * every client while it is open: another pool's too).
 */
async function countedConnection() {
  const one = await openDatabase({ databaseUrl: testDb.url, poolSize: 1 })
  let trips = 0
  const query = pg.Client.prototype.query
  pg.Client.prototype.query = function counted(this: pg.Client, ...args: unknown[]) {
    trips++
    return (query as (...a: unknown[]) => unknown).apply(this, args)
  } as typeof query
  return {
    db: one.db,
    trips: () => trips,
    async close() {
      pg.Client.prototype.query = query
      await one.close()
    },
  }
}

let testDb: TestDatabase
beforeAll(async () => {
  testDb = await createTestDatabase({ empty: true })
})
afterAll(() => testDb?.drop())

describe(`database layer (${engine})`, () => {
  it('returns int8 as number, numeric as string, timestamptz as Date, jsonb parsed', async () => {
    const { rows } = await sql<{ big: number; money: string; at: Date; doc: unknown; n: number }>`
      SELECT 9007199254740991::int8 AS big, 1234.50::numeric AS money, now() AS at,
             '{"a":[1,2]}'::jsonb AS doc, count(*) AS n FROM generate_series(1, 3)`.execute(
      testDb.database.db,
    )
    expect(rows[0]).toEqual({
      big: 9007199254740991,
      money: '1234.50',
      at: expect.any(Date),
      doc: { a: [1, 2] },
      n: 3,
    })
  })

  it('refuses int8 values a JS number cannot hold exactly', async () => {
    await expect(
      sql`SELECT 9007199254740993::int8 AS big`.execute(testDb.database.db),
    ).rejects.toThrow(/safe range/)
  })

  // The embedded engine has no connection pool to prepare on: this is PostgreSQL's alone.
  if (engine === 'postgres')
    it('prepares parameterized statements once per connection, unless turned off', async () => {
      const prepared = async (preparedStatements: boolean) => {
        const one = await openDatabase({ databaseUrl: testDb.url, poolSize: 1, preparedStatements })
        try {
          await sql`SELECT ${1}::int AS n`.execute(one.db)
          const { rows } = await sql<{ n: number }>`
            SELECT count(*)::int AS n FROM pg_prepared_statements`.execute(one.db)
          return rows[0]!.n
        } finally {
          await one.close()
        }
      }
      expect(await prepared(true)).toBeGreaterThan(0)
      expect(await prepared(false)).toBe(0)
    })

  if (engine === 'postgres')
    it('runs a statement marked PLANNED_EACH_RUN unprepared: planned for its values each time', async () => {
      const one = await openDatabase({ databaseUrl: testDb.url, poolSize: 1 })
      try {
        const texts = async () =>
          (
            await sql<{ statement: string }>`SELECT statement FROM pg_prepared_statements`.execute(
              one.db,
            )
          ).rows.map((r) => r.statement)
        await sql`${sql.raw(PLANNED_EACH_RUN)}SELECT ${1}::int AS planned`.execute(one.db)
        await sql`SELECT ${1}::int AS prepared`.execute(one.db)
        expect((await texts()).filter((t) => t.includes('AS planned'))).toEqual([])
        expect((await texts()).filter((t) => t.includes('AS prepared'))).toHaveLength(1)
      } finally {
        await one.close()
      }
    })

  // The columns of a prepared statement's result are described on its first run only.
  it('reads a statement alike on its first run and its later ones', async () => {
    const one =
      engine === 'postgres'
        ? await openDatabase({ databaseUrl: testDb.url, poolSize: 1 })
        : testDb.database
    try {
      const read = (n: number) =>
        sql<Record<string, unknown>>`
          SELECT ${n}::int8 AS big, ${`${n}.50`}::numeric AS money, ${new Date(n)}::timestamptz AS at,
            ${JSON.stringify({ n })}::jsonb AS doc, NULL::text AS none, ${'é'}::text AS name
          FROM generate_series(1, ${n}) AS s`.execute(one.db)
      for (const n of [1, 2, 3]) {
        const { rows } = await read(n)
        expect(rows).toHaveLength(n)
        expect(rows[0]).toEqual({
          big: n,
          money: `${n}.50`,
          at: new Date(n),
          doc: { n },
          none: null,
          name: 'é',
        })
      }
    } finally {
      if (one !== testDb.database) await one.close()
    }
  })

  // A connection keeps what it learnt of a statement's columns to itself: another connection,
  // opened after the table changed, reads the new columns.
  if (engine === 'postgres')
    it("reads a table's new column on a connection opened after it was added", async () => {
      await sql`CREATE TABLE widened (a int)`.execute(testDb.database.db)
      await sql`INSERT INTO widened VALUES (1)`.execute(testDb.database.db)
      const read = (db: Executor) => sql`SELECT * FROM widened WHERE a = ${1}`.execute(db)
      const before = await openDatabase({ databaseUrl: testDb.url, poolSize: 1 })
      try {
        expect((await read(before.db)).rows).toEqual([{ a: 1 }])
        await sql`ALTER TABLE widened ADD COLUMN b text DEFAULT 'x'`.execute(testDb.database.db)
        const after = await openDatabase({ databaseUrl: testDb.url, poolSize: 1 })
        try {
          expect((await read(after.db)).rows).toEqual([{ a: 1, b: 'x' }])
        } finally {
          await after.close()
        }
      } finally {
        await before.close()
      }
    })

  // PGlite has one connection and no log shipping to wait for: `relaxed` is `db` there.
  if (engine === 'postgres')
    it('commits relaxed writes without waiting for the log, and no others', async () => {
      const setting = async (db: Executor) =>
        (await sql<{ s: string }>`SELECT current_setting('synchronous_commit') AS s`.execute(db))
          .rows[0]!.s
      expect(await setting(testDb.database.relaxed)).toBe('off')
      expect(await setting(testDb.database.db)).toBe('on')
    })

  // A generic plan cannot see a parameter's value, so `status = $1` never matches an index's
  // `WHERE status = 'pending'`: after five runs PostgreSQL may keep a plan that reads the whole
  // table at every poll (it did, on a table that was small when the plan was made). The
  // conditions a partial index's predicate needs are written in the statement's text. Only
  // PostgreSQL's pool prepares statements; the embedded engine plans each run.
  if (engine === 'postgres')
    it('each poller query can use its partial index without seeing its parameters', async () => {
      const migrated = await createTestDatabase()
      // One connection: the statement prepared by the run is the one explained.
      const database = await openDatabase({ databaseUrl: migrated.url, poolSize: 1 })
      try {
        const { db } = database
        await sql`SET plan_cache_mode = force_generic_plan`.execute(db)
        // Not "cheaper than reading the table": whether the index can answer at all.
        await sql`SET enable_seqscan = off`.execute(db)
        for (const poll of POLLS) {
          await poll.run(db)
          // The statement just prepared (this read has no parameters: it is not prepared).
          const { rows } = await sql<{ name: string; parameters: number }>`
          SELECT name, cardinality(parameter_types) AS parameters FROM pg_prepared_statements
          ORDER BY prepare_time DESC LIMIT 1`.execute(db)
          const [prepared] = rows
          expect(prepared, poll.index).toBeDefined()
          const nulls = Array.from({ length: prepared!.parameters }, () => 'NULL').join(', ')
          const plan = await sql<{ 'QUERY PLAN': string }>`
          EXPLAIN EXECUTE ${sql.raw(prepared!.name)}(${sql.raw(nulls)})`.execute(db)
          const text = plan.rows.map((r) => r['QUERY PLAN']).join('\n')
          expect(text, poll.index).toContain(poll.index)
        }
      } finally {
        await database.close()
        await migrated.drop()
      }
    })

  // Generic plans are made for the tables as they were: a connection is replaced in time, and
  // its statements are prepared and planned again on the new one.
  if (engine === 'postgres')
    it('replaces a pooled connection after its lifetime, its statements prepared anew', async () => {
      const one = await openDatabase({
        databaseUrl: testDb.url,
        poolSize: 1,
        connectionLifetimeSeconds: 1,
      })
      const backend = async () =>
        (
          await sql<{ pid: number; one: number }>`
            SELECT pg_backend_pid() AS pid, ${1}::int AS one`.execute(one.db)
        ).rows[0]!
      try {
        const first = await backend()
        expect((await backend()).pid).toBe(first.pid)
        await new Promise((r) => setTimeout(r, 1_500))
        const later = await backend()
        expect(later).toEqual({ pid: expect.any(Number), one: 1 })
        expect(later.pid).not.toBe(first.pid)
      } finally {
        await one.close()
      }
    })

  // A server restart or an idle timeout ends idle connections: without the pool's error
  // listener, pg's pool would throw its error out of the socket's event, ending the process.
  if (engine === 'postgres')
    it('drops an idle connection the server ended, and opens another for the next statement', async () => {
      const one = await openDatabase({ databaseUrl: testDb.url, poolSize: 1 })
      const backend = async () =>
        (await sql<{ pid: number }>`SELECT pg_backend_pid() AS pid, ${1}::int`.execute(one.db))
          .rows[0]!.pid
      try {
        const first = await backend()
        await sql`SELECT pg_terminate_backend(${first})`.execute(testDb.database.db)
        await new Promise((r) => setTimeout(r, 200))
        expect(await backend()).not.toBe(first)
      } finally {
        await one.close()
      }
    })

  // DATABASE_POOL_SIZE reaches the pool a service opens: statements beyond it wait in the
  // service, not inside PostgreSQL (docs/ARCHITECTURE.md, "Few connections").
  if (engine === 'postgres')
    it('a service started from its config holds at most DATABASE_POOL_SIZE connections', async () => {
      const database = await createTestDatabase()
      const config = loadConfig({
        ...TEST_ENV,
        APP_SECRET: randomBytes(32).toString('hex'),
        DATABASE_URL: database.url,
        DATABASE_POOL_SIZE: '2',
      })
      const service = await startService(config, { logger: false })
      try {
        const backends = await Promise.all(
          Array.from({ length: 8 }, async () => {
            const { rows } = await sql<{ pid: number }>`
              SELECT pg_backend_pid() AS pid, pg_sleep(${0.05}::float8)`.execute(
              service.deps.database.db,
            )
            return rows[0]!.pid
          }),
        )
        expect(new Set(backends).size).toBeLessThanOrEqual(2)
      } finally {
        await service.close()
        await database.drop()
      }
    })

  it('applies migrations once, even when two runs race', async () => {
    const [first, second] = await Promise.all([migrate(testDb.database), migrate(testDb.database)])
    const files = readdirSync('src/kit/migrations')
      .filter((f) => f.endsWith('.sql'))
      .sort()
    expect(files.length).toBeGreaterThan(0)
    expect([...first!, ...second!].sort()).toEqual(files)
    expect(await migrate(testDb.database)).toEqual([])
  })

  describe('transactions', () => {
    const insert = (ex: Executor, n: number) => sql`INSERT INTO probe VALUES (${n})`.execute(ex)
    const probe = async (ex: Executor) =>
      (await sql<{ n: number }>`SELECT n FROM probe ORDER BY n`.execute(ex)).rows.map((r) => r.n)
    beforeAll(async () => {
      await sql`CREATE TABLE probe (n int PRIMARY KEY)`.execute(testDb.database.db)
    })

    it('commits, rolls back on a throw, refuses to commit after a failed statement', async () => {
      const { db } = testDb.database
      await withTx(db, (tx) => insert(tx, 1))
      const thrown = withTx(db, async (tx) => {
        await insert(tx, 2)
        throw new Error('boom')
      })
      await expect(thrown).rejects.toThrow('boom')
      const aborted = withTx(db, async (tx) => {
        await insert(tx, 3)
        await insert(tx, 1).catch(() => {}) // duplicate key, swallowed: the transaction is dead
      })
      await expect(aborted).rejects.toBeInstanceOf(AbortedTransactionError)
      expect(await probe(db)).toEqual([1])
    })

    // PostgreSQL only: PGlite has no prepared statements and sends no BEGIN over a wire.
    if (engine === 'postgres')
      it('sends BEGIN with the first statement, and nothing for an empty transaction', async () => {
        const one = await countedConnection()
        const tripsOf = async (work: () => Promise<unknown>) => {
          const before = one.trips()
          await work().catch(() => {})
          return one.trips() - before
        }
        try {
          await insert(one.db, 10) // prepared on the connection: the next BEGIN goes with it
          expect(await tripsOf(() => withTx(one.db, (tx) => insert(tx, 11)))).toBe(2)
          // The BEGIN took effect: a throw rolls the statement back.
          const thrown = () =>
            withTx(one.db, async (tx) => {
              await insert(tx, 12)
              throw new Error('roll back')
            })
          expect(await tripsOf(thrown)).toBe(2)
          // A statement new to the connection waits for a BEGIN of its own; still one transaction.
          const fresh = () =>
            withTx(one.db, async (tx) => {
              await sql`INSERT INTO probe VALUES (${13}), (${14})`.execute(tx)
              throw new Error('roll back')
            })
          expect(await tripsOf(fresh)).toBe(3)
          // A transaction without a statement sends nothing, and leaves none open behind it.
          expect(await tripsOf(() => withTx(one.db, async () => {}))).toBe(0)
          expect(await tripsOf(() => withTx(one.db, async () => Promise.reject(new Error())))).toBe(
            0,
          )
          await insert(one.db, 15)
          expect(await probe(testDb.database.db)).toEqual(expect.arrayContaining([10, 11, 15]))
          expect(await probe(testDb.database.db)).not.toEqual(expect.arrayContaining([12]))
          expect(await probe(testDb.database.db)).not.toEqual(expect.arrayContaining([13]))
        } finally {
          await one.close()
        }
      })

    it("a statement marked its transaction's last commits or rolls back with it", async () => {
      const { db } = testDb.database
      const last = (tx: Executor, n: number) =>
        writeParts(tx, [{ name: 'row', query: sql`INSERT INTO probe VALUES (${n})` }], undefined, {
          endsTransaction: true,
        })
      await withTx(db, async (tx) => {
        await insert(tx, 30)
        await last(tx, 31)
      })
      await withTx(db, (tx) => last(tx, 32))
      // It fails (a duplicate key): the statement before it goes too.
      const failed = withTx(db, async (tx) => {
        await insert(tx, 33)
        await last(tx, 30)
      })
      await expect(failed).rejects.toThrow(/duplicate key/)
      expect(await probe(db)).toEqual(expect.arrayContaining([30, 31, 32]))
      expect(await probe(db)).not.toContain(33)
    })

    // PostgreSQL only: PGlite runs the marked statement as any other, its COMMIT after it.
    if (engine === 'postgres')
      it('sends the COMMIT with the statement marked last: committed as it answers', async () => {
        const one = await countedConnection()
        const last = (tx: Executor, n: number) =>
          writeParts(
            tx,
            [{ name: 'row', query: sql`INSERT INTO probe VALUES (${n})` }],
            undefined,
            {
              endsTransaction: true,
            },
          )
        try {
          await insert(one.db, 40) // prepared on the connection: the next BEGIN goes with it
          await withTx(one.db, (tx) => last(tx, 41)) // and the marked one
          let seenMeanwhile: number[] = []
          let atLast = 0
          const before = one.trips()
          await withTx(one.db, async (tx) => {
            await insert(tx, 42)
            await last(tx, 43)
            atLast = one.trips() - before
            // Another connection sees both before this transaction's function returns.
            seenMeanwhile = await probe(testDb.database.db)
          })
          expect(atLast).toBe(2) // BEGIN + insert; the marked one + COMMIT
          expect(one.trips() - before).toBe(3) // and the probe: no COMMIT of its own after
          expect(seenMeanwhile).toEqual(expect.arrayContaining([42, 43]))
          // Alone in its transaction: one round trip, no BEGIN nor COMMIT.
          const alone = one.trips()
          await withTx(one.db, (tx) => last(tx, 44))
          expect(one.trips() - alone).toBe(1)
          // Nothing runs in the transaction after it.
          const after = withTx(one.db, async (tx) => {
            await insert(tx, 45)
            await last(tx, 46)
            await insert(tx, 47)
          })
          await expect(after).rejects.toThrow(/after the one that ended its transaction/)
          expect(await probe(testDb.database.db)).toEqual(
            expect.arrayContaining([41, 42, 43, 44, 45, 46]),
          )
          expect(await probe(testDb.database.db)).not.toContain(47)
          // The connection is whole again: a plain transaction commits as ever.
          await withTx(one.db, (tx) => insert(tx, 48))
          expect(await probe(testDb.database.db)).toContain(48)
        } finally {
          await one.close()
        }
      })

    it("never runs a query inside another caller's open transaction", async () => {
      const { db } = testDb.database
      let inserted!: () => void
      let finish!: () => void
      const insertedSignal = new Promise<void>((resolve) => {
        inserted = resolve
      })
      const finishSignal = new Promise<void>((resolve) => {
        finish = resolve
      })
      const rolledBack = withTx(db, async (tx) => {
        await insert(tx, 9)
        inserted()
        await finishSignal
        throw new Error('roll back')
      })
      await insertedSignal
      // On PGlite this waits for the single connection; on PostgreSQL it runs beside the open one.
      const outside = probe(db)
      finish()
      await expect(rolledBack).rejects.toThrow('roll back')
      expect(await outside).not.toContain(9)
    })
  })
})
