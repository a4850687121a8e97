// Every channel a process listens to shares one PostgreSQL connection (kit/pg-listener.ts): a
// notifying commit wakes every listening backend of the database, whatever its channel.
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type Database, openDatabase } from '../../src/kit/db.ts'
import { createTestDatabase, engine, type TestDatabase } from '../setup/database.ts'

let testDb: TestDatabase
let database: Database
beforeAll(async () => {
  testDb = await createTestDatabase({ empty: true })
  // On PostgreSQL, a database of its own: its listening connection is the only one there.
  database = testDb.url ? await openDatabase({ databaseUrl: testDb.url }) : testDb.database
})
afterAll(async () => {
  if (database !== testDb?.database) await database?.close()
  await testDb?.drop()
})

/** The backends of the test's database that listen: their `LISTEN` was their last statement. */
const listeningBackends = async () =>
  (
    await sql<{ n: number }>`SELECT count(*)::int AS n FROM pg_stat_activity
      WHERE datname = current_database() AND query LIKE 'LISTEN%'`.execute(testDb.database.db)
  ).rows[0]!.n

const notify = (channel: string, payload: string) =>
  sql`SELECT pg_notify(${channel}, ${payload})`.execute(testDb.database.db)

describe(`listening (${engine})`, () => {
  it('hears each channel (on PostgreSQL: one backend for all), each subscriber only its own; the last close ends it', async () => {
    const heard: string[] = []
    const a = await database.listen('canal_a', (p) => heard.push(`a:${p}`))
    const b = await database.listen('canal_b', (p) => heard.push(`b:${p}`))
    const a2 = await database.listen('canal_a', (p) => heard.push(`a2:${p}`))
    if (engine === 'postgres') expect(await listeningBackends()).toBe(1)

    await notify('canal_a', '1')
    await notify('canal_b', '2')
    await a.sync()
    expect(heard.sort()).toEqual(['a2:1', 'a:1', 'b:2'])

    await a.close()
    await notify('canal_a', '3')
    await b.sync()
    expect(heard.filter((h) => h.endsWith(':3'))).toEqual(['a2:3'])

    await a2.close()
    await notify('canal_a', '4')
    await notify('canal_b', '5')
    await b.sync()
    expect(heard.filter((h) => h.endsWith(':4') || h.endsWith(':5'))).toEqual(['b:5'])

    await b.close()
    if (engine === 'postgres') await expect.poll(listeningBackends).toBe(0)
  })

  // PGlite listens inside its own process: it has no connection to lose.
  if (engine === 'postgres')
    it('a lost connection tells every subscriber; a later listen opens a new one', async () => {
      const lost: string[] = []
      await database.listen(
        'canal_c',
        () => {},
        () => lost.push('c'),
      )
      await database.listen(
        'canal_d',
        () => {},
        () => lost.push('d'),
      )
      await sql`SELECT pg_terminate_backend(pid) FROM pg_stat_activity
        WHERE datname = current_database() AND query LIKE 'LISTEN%'`.execute(testDb.database.db)
      await expect.poll(() => lost.sort()).toEqual(['c', 'd'])

      const heard: string[] = []
      const e = await database.listen('canal_e', (p) => heard.push(p))
      expect(await listeningBackends()).toBe(1)
      await notify('canal_e', 'de novo')
      await e.sync()
      expect(heard).toEqual(['de novo'])
      await e.close()
    })
})
