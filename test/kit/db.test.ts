import { readdirSync } from 'node:fs'
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { migrate } from '../../src/kit/db.ts'
import { createTestDatabase, engine, type TestDatabase } from '../setup/database.ts'

let testDb: TestDatabase
beforeAll(async () => {
  testDb = await createTestDatabase()
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

  it('applies migrations once, even when two runs race', async () => {
    const [first, second] = await Promise.all([migrate(testDb.database), migrate(testDb.database)])
    const files = readdirSync('src/kit/migrations')
      .filter((f) => f.endsWith('.sql'))
      .sort()
    expect(files.length).toBeGreaterThan(0)
    expect([...first!, ...second!].sort()).toEqual(files)
    expect(await migrate(testDb.database)).toEqual([])
  })
})
