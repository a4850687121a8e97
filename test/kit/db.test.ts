import { readdirSync } from 'node:fs'
import { AbortedTransactionError, sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type Executor, migrate, openDatabase, withTx } from '../../src/kit/db.ts'
import { createTestDatabase, engine, type TestDatabase } from '../setup/database.ts'

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

  // PGlite has one connection and no log shipping to wait for: `relaxed` is `db` there.
  if (engine === 'postgres')
    it('commits relaxed writes without waiting for the log, and no others', async () => {
      const setting = async (db: Executor) =>
        (await sql<{ s: string }>`SELECT current_setting('synchronous_commit') AS s`.execute(db))
          .rows[0]!.s
      expect(await setting(testDb.database.relaxed)).toBe('off')
      expect(await setting(testDb.database.db)).toBe('on')
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
