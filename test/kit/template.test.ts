import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { withTx } from '../../src/kit/db.ts'
import { writeParts } from '../../src/kit/statement.ts'
import { compileTemplate, fragmentTemplate, template } from '../../src/kit/template.ts'
import { createTestDatabase, engine, type TestDatabase } from '../setup/database.ts'

let testDb: TestDatabase
beforeAll(async () => {
  testDb = await createTestDatabase()
  await sql`CREATE TABLE tpl_notes (id int PRIMARY KEY, note text, kind text)`.execute(
    testDb.database.db,
  )
})
afterAll(() => testDb?.drop())

describe(`statements compiled once (${engine})`, () => {
  it('numbers each value where the builder put it and keeps the constants it wrote', () => {
    const compiled = compileTemplate((q, v: { id: string; email: string }) =>
      q
        .selectFrom('users')
        .select('id')
        .where('email', '=', v.email)
        .where('id', '<>', v.id)
        .where('name', '=', 'fixa'),
    )
    expect(compiled.sql).toBe(
      'select "id" from "users" where "email" = $1 and "id" <> $2 and "name" = $3',
    )
    expect(compiled.sources).toEqual(['email', 'id', { constant: 'fixa' }])
  })

  it('refuses a build that reads a value instead of passing it', () => {
    expect(() =>
      compileTemplate((q, v: { note: string }) =>
        q.selectFrom('users').select(sql.raw(`${v.note}`).as('x')),
      ),
    ).toThrow(/"note" used while building/)
  })

  it('refuses a build that spreads the values: it would see none of them', () => {
    expect(() =>
      compileTemplate((q, v: { id: string; email: string }) =>
        q.insertInto('users').values({ ...v, name: 'x', created_at: new Date() }),
      ),
    ).toThrow(/name each one/)
  })

  it('runs with each call’s values, alone and as a part beside others', async () => {
    const db = testDb.database.db
    const insert = fragmentTemplate(
      (_, v: { id: number; note: string }) =>
        sql`INSERT INTO tpl_notes (id, note, kind) VALUES (${v.id}, ${v.note}, 'template') RETURNING id`,
    )
    const rows = await writeParts<{ id: number; note: string }>(
      db,
      [
        {
          name: 'first',
          query: sql`INSERT INTO tpl_notes VALUES (${1}, ${'um'}, 'sql') RETURNING id`,
        },
        { name: 'second', query: insert({ id: 2, note: 'dois' }) },
        { name: 'third', query: insert({ id: 3, note: 'três' }) },
      ],
      sql`SELECT id FROM second UNION ALL SELECT id FROM third ORDER BY id`,
    )
    expect(rows).toEqual([{ id: 2 }, { id: 3 }])
    const notes = template((q, v: { kind: string }) =>
      q
        .selectFrom('tpl_notes' as 'users')
        .select(['id', 'note' as 'name'])
        .where('kind' as 'email', '=', v.kind)
        .orderBy('id'),
    )
    expect(await notes(db, { kind: 'template' })).toEqual([
      { id: 2, note: 'dois' },
      { id: 3, note: 'três' },
    ])
    expect(await notes(db, { kind: 'sql' })).toEqual([{ id: 1, note: 'um' }])
  })

  it('composes a statement of compiled parts once, and each run takes its own values', async () => {
    const db = testDb.database.db
    const insert = fragmentTemplate(
      (_, v: { id: number; note: string }) =>
        sql`INSERT INTO tpl_notes (id, note, kind) VALUES (${v.id}, ${v.note}, 'pair') RETURNING id`,
    )
    const both = { sql: 'SELECT id FROM a UNION ALL SELECT id FROM b ORDER BY id', parameters: [] }
    const pair = (first: number, second: number) =>
      writeParts<{ id: number }>(
        db,
        [
          { name: 'a', query: insert({ id: first, note: `n${first}` }) },
          { name: 'b', query: insert({ id: second, note: `n${second}` }) },
        ],
        both,
      )
    expect(await pair(10, 11)).toEqual([{ id: 10 }, { id: 11 }])
    expect(await pair(20, 21)).toEqual([{ id: 20 }, { id: 21 }])
    const { rows } = await sql<{ id: number; note: string }>`
      SELECT id, note FROM tpl_notes WHERE kind = 'pair' ORDER BY id`.execute(db)
    expect(rows.map((r) => `${r.id}:${r.note}`)).toEqual(['10:n10', '11:n11', '20:n20', '21:n21'])
  })

  it('runs a `together` statement in one transaction with those started beside it, on either pool, and inside a caller’s transaction in that one', async () => {
    const { db, relaxed } = testDb.database
    const stamp = template(
      (_, v: { id: number }) =>
        sql<{ xid: string }>`INSERT INTO tpl_notes (id, note, kind)
          VALUES (${v.id}, txid_current()::text, 'together') RETURNING note AS xid`,
      { together: true },
    )
    /** How many transactions the runs took. */
    const transactionsAmong = async (runs: Promise<{ xid: string }[]>[]) =>
      new Set((await Promise.all(runs)).map(([row]) => row!.xid)).size
    for (const [base, pool] of [
      [100, db],
      [200, relaxed],
    ] as const) {
      // Run once first: a statement goes with others only where it is prepared already.
      await stamp(pool, { id: base })
      const beside = [1, 2, 3].map((i) => stamp(pool, { id: base + i }))
      // PGlite runs one statement at a time, each its own transaction.
      expect(await transactionsAmong(beside)).toBe(engine === 'postgres' ? 1 : 3)
    }
    const [inside, own] = await withTx(db, async (tx) => [
      (await stamp(tx, { id: 300 }))[0]!.xid,
      (await sql<{ xid: string }>`SELECT txid_current()::text AS xid`.execute(tx)).rows[0]!.xid,
    ])
    expect(inside).toBe(own)
  })
})
