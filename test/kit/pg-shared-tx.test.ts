// Transactions that wait for a connection at the same moment run as one on PostgreSQL
// (kit/pg-shared-tx.ts); a failure before the COMMIT makes each run again alone.
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { afterCommit } from '../../src/kit/after-commit.ts'
import { type Database, openDatabase, transactionOf, withTxTogether } from '../../src/kit/db.ts'
import { writeParts } from '../../src/kit/statement.ts'
import { createTestDatabase, engine, type TestDatabase } from '../setup/database.ts'
import * as heldPool from '../setup/held-pool.ts'

let testDb: TestDatabase
/** The database of one pooled connection (PostgreSQL), or the test's PGlite. */
let one: Database

beforeAll(async () => {
  testDb = await createTestDatabase({ empty: true })
  one = testDb.url ? await openDatabase({ databaseUrl: testDb.url, poolSize: 1 }) : testDb.database
  await sql`CREATE TABLE steps (id int, step int, xid bigint NOT NULL, PRIMARY KEY (id, step))`.execute(
    one.db,
  )
})
afterAll(async () => {
  if (one !== testDb.database) await one.close()
  await testDb?.drop()
})

const whileHeld = <T>(calls: () => Promise<T>[]) => heldPool.whileHeld(one.db, calls)
const terminateSleeper = () => heldPool.terminateSleeper(testDb.database.db)

interface Caller {
  /** Each run of the caller's function, the shared one and any alone. */
  runs: number
  /** Its afterCommit hook's calls. */
  committed: number
  /** The database transactions its runs took part in (kit/db.ts transactionOf). */
  transactions: object[]
}

/**
 * A caller's transaction of two steps, each a row with the id of the transaction it ran in;
 * the second ends the transaction (ENDS_TRANSACTION). `fail`: that step is refused (division by
 * zero); `sleep`: seconds that step waits on its first run; `throws`: the function throws
 * between the steps.
 */
function caller(
  id: number,
  opts: { fail?: 1 | 2; sleep?: { step: 1 | 2; seconds: number }; throws?: boolean } = {},
) {
  const seen: Caller = { runs: 0, committed: 0, transactions: [] }
  const step = (db: Parameters<typeof writeParts>[0], n: 1 | 2, first: boolean) =>
    writeParts(
      db,
      [
        {
          name: 'row',
          query: sql`INSERT INTO steps (id, step, xid)
            SELECT ${id}, ${n}, txid_current() / ${opts.fail === n ? 0 : 1}
            FROM pg_sleep(${first && opts.sleep?.step === n ? opts.sleep.seconds : 0})`,
        },
      ],
      undefined,
      { endsTransaction: n === 2 },
    )
  const run = () =>
    withTxTogether(one.db, async (tx) => {
      const first = seen.runs++ === 0
      seen.transactions.push(transactionOf(tx))
      afterCommit(tx, () => {
        seen.committed++
      })
      await step(tx, 1, first)
      if (opts.throws) throw new Error(`caller ${id} threw`)
      await step(tx, 2, first)
      return id
    })
  return { seen, run }
}

/** The rows of these callers: id, step and transaction, in order. */
const rows = async (ids: number[]) =>
  (
    await sql<{ id: number; step: number; xid: string }>`
      SELECT id, step, xid::text FROM steps WHERE id = ANY(${ids}) ORDER BY id, step`.execute(
      one.db,
    )
  ).rows

/** Starts the callers while the connection is held: their transactions wait for it together. */
const together = (callers: ReturnType<typeof caller>[]) =>
  whileHeld(() => callers.map((c) => c.run()))

const statuses = (settled: PromiseSettledResult<unknown>[]) => settled.map((s) => s.status)

/**
 * Callers `base + 1` and `base + 2` together, the second asleep at `step` until its connection
 * is ended (`base` itself runs first, alone, to prepare the statements).
 */
async function connectionLostAt(base: number, step: 1 | 2) {
  await caller(base).run()
  const callers = [caller(base + 1), caller(base + 2, { sleep: { step, seconds: 5 } })]
  const settled = together(callers)
  await terminateSleeper()
  return { callers, settled: await settled }
}

describe(`transactions run together (${engine})`, () => {
  it('runs each caller once, with its hooks after the commit', async () => {
    const alone = caller(1)
    expect(await alone.run()).toBe(1)
    expect(alone.seen).toMatchObject({ runs: 1, committed: 1 })
    expect((await rows([1])).map((r) => r.step)).toEqual([1, 2])
  })

  it('a caller alone fails as in a transaction of its own: once, with its own error', async () => {
    const alone = caller(2, { fail: 2 })
    await expect(alone.run()).rejects.toMatchObject({ code: '22012' })
    expect(alone.seen).toMatchObject({ runs: 1, committed: 0 })
    expect(await rows([2])).toEqual([])
  })

  if (engine === 'postgres') {
    it('shares one transaction among the callers that waited for the connection', async () => {
      await caller(10).run() // prepares the steps on the connection
      const callers = [caller(11), caller(12), caller(13)]
      const settled = await together(callers)
      expect(settled.map((s) => (s as PromiseFulfilledResult<number>).value)).toEqual([11, 12, 13])
      const written = await rows([11, 12, 13])
      expect(written.map((r) => `${r.id}.${r.step}`)).toEqual([
        '11.1',
        '11.2',
        '12.1',
        '12.2',
        '13.1',
        '13.2',
      ])
      expect(new Set(written.map((r) => r.xid)).size).toBe(1)
      expect(new Set(callers.map((c) => c.seen.transactions[0])).size).toBe(1)
      for (const { seen } of callers) expect(seen).toMatchObject({ runs: 1, committed: 1 })
    })

    it('a refused statement fails its caller alone: the others run again alone and commit', async () => {
      await caller(20).run()
      const callers = [caller(21), caller(22, { fail: 2 }), caller(23)]
      const settled = await together(callers)
      expect(statuses(settled)).toEqual(['fulfilled', 'rejected', 'fulfilled'])
      expect((settled[1] as PromiseRejectedResult).reason.code).toBe('22012')
      const written = await rows([21, 22, 23])
      expect(written.map((r) => `${r.id}.${r.step}`)).toEqual(['21.1', '21.2', '23.1', '23.2'])
      // Each alone now: no two callers share a transaction.
      expect(new Set(written.map((r) => r.xid)).size).toBe(2)
      // The shared run's hooks went with its rollback.
      for (const { seen } of callers) expect(seen.runs).toBe(2)
      expect(callers.map((c) => c.seen.committed)).toEqual([1, 0, 1])
    })

    it('a caller that throws fails alone', async () => {
      await caller(30).run()
      const callers = [caller(31), caller(32, { throws: true })]
      const settled = await together(callers)
      expect(statuses(settled)).toEqual(['fulfilled', 'rejected'])
      expect((settled[1] as PromiseRejectedResult).reason.message).toBe('caller 32 threw')
      expect((await rows([31, 32])).map((r) => `${r.id}.${r.step}`)).toEqual(['31.1', '31.2'])
    })

    it('a connection lost before the commit: each runs again alone', async () => {
      const { settled } = await connectionLostAt(40, 1)
      expect(statuses(settled)).toEqual(['fulfilled', 'fulfilled'])
      const written = await rows([41, 42])
      expect(written.map((r) => `${r.id}.${r.step}`)).toEqual(['41.1', '41.2', '42.1', '42.2'])
      expect(new Set(written.map((r) => r.xid)).size).toBe(2)
    })

    it('a connection lost while the commit is under way: every caller hears it, none runs again', async () => {
      const { callers, settled } = await connectionLostAt(50, 2)
      expect(statuses(settled)).toEqual(['rejected', 'rejected'])
      expect(await rows([51, 52])).toEqual([])
      for (const { seen } of callers) expect(seen).toMatchObject({ runs: 1, committed: 0 })
      await caller(53).run() // the pool opened a new connection
      expect((await rows([53])).length).toBe(2)
    })
  }
})
