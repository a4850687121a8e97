import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { withTx } from '../../src/kit/db.ts'
import { partsStatement, writeParts } from '../../src/kit/statement.ts'
import { createTestDatabase, engine, type TestDatabase } from '../setup/database.ts'

let testDb: TestDatabase
beforeAll(async () => {
  testDb = await createTestDatabase()
  const db = testDb.database.db
  await sql`CREATE TABLE parts_a (id int PRIMARY KEY, note text)`.execute(db)
  await sql`CREATE TABLE parts_b (id int PRIMARY KEY, a_id int REFERENCES parts_a (id))`.execute(db)
})
afterAll(() => testDb?.drop())

describe(`writes as parts of one statement (${engine})`, () => {
  it('runs every part, unread ones too, and a later part reads an earlier one by name', async () => {
    const rows = await writeParts(
      testDb.database.db,
      [
        { name: 'a', query: sql`INSERT INTO parts_a VALUES (${1}, ${'um'}) RETURNING id` },
        // Its foreign key is checked when the statement ends, after `a` wrote its row.
        { name: 'b', query: sql`INSERT INTO parts_b SELECT ${10}, id FROM a` },
        { name: 'c', query: sql`INSERT INTO parts_a VALUES (${2}, ${'dois'})` },
      ],
      sql<{ id: number }>`SELECT id FROM a`,
    )
    expect(rows).toEqual([{ id: 1 }])
    const { rows: written } = await sql<{ id: number; a_id: number | null }>`
      SELECT a.id, b.a_id FROM parts_a a LEFT JOIN parts_b b ON b.a_id = a.id ORDER BY a.id`.execute(
      testDb.database.db,
    )
    expect(written).toEqual([
      { id: 1, a_id: 1 },
      { id: 2, a_id: null },
    ])
  })

  it('fails whole: a part that fails leaves none of the others written', async () => {
    await expect(
      withTx(testDb.database.db, (tx) =>
        writeParts(tx, [
          { name: 'fresh', query: sql`INSERT INTO parts_a VALUES (${3}, ${'três'})` },
          { name: 'taken', query: sql`INSERT INTO parts_a VALUES (${1}, ${'de novo'})` },
        ]),
      ),
    ).rejects.toThrow()
    const { rows } = await sql`SELECT id FROM parts_a WHERE id = 3`.execute(testDb.database.db)
    expect(rows).toEqual([])
  })

  it('refuses two parts of one name', () => {
    const part = { name: 'x', query: sql`INSERT INTO parts_a VALUES (9, 'x')` }
    expect(() => partsStatement([part, part])).toThrow(/distinct names/)
  })
})
