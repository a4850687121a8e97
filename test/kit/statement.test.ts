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

  it("hands a part's value over once its transaction has committed, never before", async () => {
    const handed: unknown[] = []
    const part = (id: number) => ({
      name: 'a',
      query: sql`INSERT INTO parts_a VALUES (${id}, ${'entregue'}) RETURNING id`,
      onCommit: {
        value: '(SELECT json_agg(id) FROM "a")',
        take: (ids: unknown) => handed.push(ids),
      },
    })
    const rows = await withTx(testDb.database.db, async (tx) => {
      const read = await writeParts(
        tx,
        [part(20)],
        sql<{ id: number; n: number }>`SELECT id, n FROM a, generate_series(3, 1, -1) AS n`,
      )
      expect(handed).toEqual([]) // written, not yet committed
      return read
    })
    expect(handed).toEqual([[20]])
    // The caller's rows come whole and in their order, with nothing of the hand-over in them.
    expect(rows).toEqual([
      { id: 20, n: 3 },
      { id: 20, n: 2 },
      { id: 20, n: 1 },
    ])
    // A SELECT that answers nothing still answers nothing; the value is handed over anyway.
    const none = await withTx(testDb.database.db, (tx) =>
      writeParts(tx, [part(21)], sql`SELECT id FROM a WHERE false`),
    )
    expect(none).toEqual([])
    expect(handed).toEqual([[20], [21]])
    // Outside a transaction the statement commits by itself: handed over at once.
    await writeParts(testDb.database.db, [part(22)])
    expect(handed).toEqual([[20], [21], [22]])
  })

  it('drops what a part would hand over when its transaction rolls back', async () => {
    const handed: unknown[] = []
    await expect(
      withTx(testDb.database.db, async (tx) => {
        await writeParts(tx, [
          {
            name: 'a',
            query: sql`INSERT INTO parts_a VALUES (${30}, ${'desfeito'}) RETURNING id`,
            onCommit: { value: '(SELECT json_agg(id) FROM "a")', take: (ids) => handed.push(ids) },
          },
        ])
        throw new Error('rollback')
      }),
    ).rejects.toThrow('rollback')
    expect(handed).toEqual([])
    // A transaction opened around withTx has no place to keep it: refused, not lost.
    await expect(
      testDb.database.db.transaction().execute((tx) =>
        writeParts(tx, [
          {
            name: 'a',
            query: sql`INSERT INTO parts_a VALUES (${31}, ${'sem withTx'}) RETURNING id`,
            onCommit: { value: '(SELECT json_agg(id) FROM "a")', take: (ids) => handed.push(ids) },
          },
        ]),
      ),
    ).rejects.toThrow(/not opened by withTx/)
    const { rows } = await sql`SELECT id FROM parts_a WHERE id IN (30, 31)`.execute(
      testDb.database.db,
    )
    expect(rows).toEqual([])
  })

  it('refuses two parts of one name', () => {
    const part = { name: 'x', query: sql`INSERT INTO parts_a VALUES (9, 'x')` }
    expect(() => partsStatement([part, part])).toThrow(/distinct names/)
  })
})
