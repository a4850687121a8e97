// Statements that wait for a connection at the same moment share one transaction on PostgreSQL
// (kit/pg-coalescer.ts, kit/pg-pipeline.ts); a refused one fails alone.
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type Database, openDatabase } from '../../src/kit/db.ts'
import { writeParts } from '../../src/kit/statement.ts'
import { createTestDatabase, engine, type TestDatabase } from '../setup/database.ts'
import * as heldPool from '../setup/held-pool.ts'

let testDb: TestDatabase
/** The database of one pooled connection (PostgreSQL), or the test's PGlite. */
let one: Database

beforeAll(async () => {
  testDb = await createTestDatabase({ empty: true })
  one = testDb.url ? await openDatabase({ databaseUrl: testDb.url, poolSize: 1 }) : testDb.database
  await sql`CREATE TABLE written (id int PRIMARY KEY, xid bigint NOT NULL)`.execute(one.db)
})
afterAll(async () => {
  if (one !== testDb.database) await one.close()
  await testDb?.drop()
})

/**
 * Writes row `id` with the id of the transaction it ran in, after `sleep` seconds; `fail`: a
 * statement refused (division by zero). One statement text, prepared once on a connection.
 */
const write = (id: number, { fail = false, sleep = 0, db = one.db } = {}) =>
  writeParts(
    db,
    [
      {
        name: 'row',
        query: sql`INSERT INTO written (id, xid)
          SELECT ${id}, txid_current() / ${fail ? 0 : 1} FROM pg_sleep(${sleep})`,
      },
    ],
    undefined,
    { together: true },
  )

const whileHeld = <T>(calls: () => Promise<T>[]) => heldPool.whileHeld(one.db, calls)
const terminateSleeper = () => heldPool.terminateSleeper(testDb.database.db)

const rows = async (ids: number[]) =>
  (
    await sql<{ id: number; xid: string }>`
      SELECT id, xid::text FROM written WHERE id = ANY(${ids}) ORDER BY id`.execute(one.db)
  ).rows

describe(`statements written together (${engine})`, () => {
  it('each resolves with its own rows, and a refused one fails alone: the others commit', async () => {
    await write(1) // prepared on the connection: from now on it may go in a pipeline
    const results = await whileHeld(() => [
      write(10),
      write(11),
      write(12, { fail: true }),
      write(13),
    ])
    expect(results.map((r) => r.status)).toEqual([
      'fulfilled',
      'fulfilled',
      'rejected',
      'fulfilled',
    ])
    expect((results[2] as PromiseRejectedResult).reason.code).toBe('22012')
    expect((await rows([10, 11, 12, 13])).map((r) => r.id)).toEqual([10, 11, 13])
  })

  if (engine === 'postgres') {
    it('shares one transaction among the statements that waited for the connection', async () => {
      await write(20)
      const results = await whileHeld(() => [write(21), write(22), write(23)])
      expect(results.every((r) => r.status === 'fulfilled')).toBe(true)
      const xids = (await rows([20, 21, 22, 23])).map((r) => r.xid)
      expect(new Set(xids.slice(1)).size).toBe(1)
      expect(xids[0]).not.toBe(xids[1])
    })

    it('runs each alone again once one is refused: no two of them share a transaction', async () => {
      await write(30)
      const results = await whileHeld(() => [write(31), write(32, { fail: true }), write(33)])
      expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled'])
      const xids = (await rows([31, 33])).map((r) => r.xid)
      expect(new Set(xids).size).toBe(2)
    })

    it('when the server ends the session, tells each caller and runs none again', async () => {
      await write(40)
      const results = whileHeld(() => [write(41), write(42, { sleep: 5 })])
      // The pipeline's backend, asleep in its second statement, is terminated.
      await terminateSleeper()
      expect((await results).map((r) => r.status)).toEqual(['rejected', 'rejected'])
      expect(await rows([41, 42])).toEqual([])
      await write(43) // the pool opened a new connection
      expect((await rows([43])).map((r) => r.id)).toEqual([43])
    })

    it('while some are on their way, the next wait for them and go together, connections free or not', async () => {
      const two = await openDatabase({ databaseUrl: testDb.url!, poolSize: 2 })
      try {
        await write(60, { db: two.db })
        const sleeper = write(61, { sleep: 0.3, db: two.db })
        // The sleeper is on a connection; the pool has another free.
        await heldPool.untilSleeping(testDb.database.db)
        await Promise.all([write(62, { db: two.db }), write(63, { db: two.db }), sleeper])
        const xids = (await rows([61, 62, 63])).map((r) => r.xid)
        expect(xids[1]).toBe(xids[2])
        expect(xids[0]).not.toBe(xids[1])
      } finally {
        await two.close()
      }
    })

    it('sends statements that lock a shared row in its order: two batches meeting on two rows do not deadlock', async () => {
      const two = await openDatabase({ databaseUrl: testDb.url!, poolSize: 2 })
      try {
        await sql`CREATE TABLE buckets (name text PRIMARY KEY, xid bigint NOT NULL)`.execute(two.db)
        // Each statement takes 50 ms before its row: the two batches run side by side.
        const hit = (name: string, locks?: string) =>
          writeParts(
            two.db,
            [
              {
                name: 'hit',
                query: sql`INSERT INTO buckets (name, xid)
                  SELECT ${name}, txid_current() FROM pg_sleep(0.05)
                  ON CONFLICT (name) DO UPDATE SET xid = excluded.xid`,
              },
            ],
            undefined,
            { together: true, locks },
          )
        const free = (round: string, n: number) =>
          Array.from({ length: 6 }, (_, i) => hit(`${round}-${n}-${i}`))
        // Sixteen at once: the first eight on one connection, the next eight on the other. In
        // the order they came, the first batch would lock a then want b, the second lock b
        // then want a.
        const round = (name: string) =>
          Promise.allSettled([
            hit('a', 'a'),
            ...free(name, 1),
            hit('b', 'b'),
            hit('b', 'b'),
            ...free(name, 2),
            hit('a', 'a'),
          ])
        await round('warm-up') // each text prepared on both connections: from now on, batches
        const results = await round('measured')
        expect(results.every((r) => r.status === 'fulfilled')).toBe(true)
        const { rows: batches } = await sql<{ n: number }>`
          SELECT count(DISTINCT xid)::int AS n FROM buckets WHERE name LIKE 'measured-%'`.execute(
          two.db,
        )
        // Two transactions: neither batch was ended by a deadlock and run again one by one.
        expect(batches[0]!.n).toBe(2)
      } finally {
        await two.close()
      }
    })

    it('when the connection is lost under a lone statement, the ones not sent go on another', async () => {
      await write(50)
      // A text new to the connection goes alone, after the sleeping one (alone too then).
      const fresh = (id: number) =>
        writeParts(
          one.db,
          [
            {
              name: 'row',
              query: sql`INSERT INTO written (id, xid) VALUES (${id}, txid_current())`,
            },
          ],
          undefined,
          { together: true },
        )
      const results = whileHeld(() => [write(51, { sleep: 5 }), fresh(52)])
      await terminateSleeper()
      expect((await results).map((r) => r.status)).toEqual(['rejected', 'fulfilled'])
      expect((await rows([51, 52])).map((r) => r.id)).toEqual([52])
    })
  }
})
