// Parameters in PostgreSQL's binary format (kit/pg-binary.ts): PostgreSQL reads each encoder's
// bytes back as the value it was given, and a value that does not fit its type goes as text.
import { sql } from 'kysely'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openDatabase } from '../../src/kit/db.ts'
import { parameterEncoders } from '../../src/kit/pg-binary.ts'
import { createTestDatabase, engine, type TestDatabase } from '../setup/database.ts'

const OID = {
  uuid: 2950,
  int8: 20,
  int4: 23,
  int2: 21,
  timestamptz: 1184,
  uuidArray: 2951,
  int8Array: 1016,
  int4Array: 1007,
  int2Array: 1005,
  timestamptzArray: 1185,
  textArray: 1009,
  bool: 16,
  boolArray: 1000,
  jsonbArray: 3807,
  text: 25,
  date: 1082,
}

const encoderOf = (oid: number) => parameterEncoders([oid])[0]

/** Values of each type, with the edges of their binary layouts. */
const CASES: { type: string; oid: number; values: unknown[] }[] = [
  {
    type: 'uuid',
    oid: OID.uuid,
    values: ['00000000-0000-0000-0000-000000000000', '0192F3A4-5B6C-7D8E-9FA0-B1C2D3E4F5A6'],
  },
  {
    type: 'int8',
    oid: OID.int8,
    values: [0, -1, Number.MAX_SAFE_INTEGER, -Number.MAX_SAFE_INTEGER],
  },
  { type: 'int4', oid: OID.int4, values: [2_147_483_647, -2_147_483_648, 9790] },
  { type: 'int2', oid: OID.int2, values: [32_767, -32_768, 15] },
  {
    type: 'timestamptz',
    oid: OID.timestamptz,
    values: [
      new Date('2026-11-27T01:02:03.456Z'),
      new Date('1999-12-31T23:59:59.999Z'), // before PostgreSQL's epoch: negative
      new Date('2000-01-01T00:00:00.000Z'),
    ],
  },
  {
    type: 'uuid[]',
    oid: OID.uuidArray,
    values: [
      [],
      ['0192f3a4-5b6c-7d8e-9fa0-b1c2d3e4f5a6', null, '00000000-0000-0000-0000-000000000001'],
    ],
  },
  { type: 'int8[]', oid: OID.int8Array, values: [[9790, -9790, 0], [null]] },
  { type: 'int4[]', oid: OID.int4Array, values: [[1, 2, 3]] },
  { type: 'int2[]', oid: OID.int2Array, values: [[0, 15, -1]] },
  {
    type: 'timestamptz[]',
    oid: OID.timestamptzArray,
    values: [[new Date('2026-11-27T01:02:03.456Z'), null]],
  },
  {
    type: 'text[]',
    oid: OID.textArray,
    values: [
      ['', 'NULL', 'a,b', '{chaves}', 'aspas "duplas"', 'barra \\ invertida', 'ção ✓', null],
    ],
  },
  { type: 'bool', oid: OID.bool, values: [true, false] },
  { type: 'bool[]', oid: OID.boolArray, values: [[true, null, false]] },
  {
    type: 'jsonb[]',
    oid: OID.jsonbArray,
    values: [[JSON.stringify({ order_id: 'a', amount: 97.9, nome: 'ação "x"' }), '[]', null]],
  },
]

describe(`parameters in binary (${engine})`, () => {
  it('encodes only the types it knows, and leaves a value that does not fit to text', () => {
    expect(parameterEncoders([OID.text, OID.date, 999_999])).toEqual([null, null, null])
    const refused: [number, unknown][] = [
      [OID.uuid, '{0192f3a4-5b6c-7d8e-9fa0-b1c2d3e4f5a6}'], // PostgreSQL's own spelling
      [OID.uuid, 'not-a-uuid'],
      [OID.int8, 2 ** 53], // not exactly a JS number
      [OID.int8, '12'],
      [OID.int4, 2_147_483_648],
      [OID.int2, -32_769],
      [OID.int4, 1.5],
      [OID.timestamptz, '2026-11-27T01:02:03Z'],
      [OID.timestamptz, new Date(Number.NaN)],
      [OID.uuidArray, ['0192f3a4-5b6c-7d8e-9fa0-b1c2d3e4f5a6', 'nope']], // one bad element
      [OID.int8Array, [[1, 2]]], // two dimensions
      [OID.textArray, ['nul \0 inside']],
      [OID.textArray, 'a string, not an array'],
      [OID.bool, 'true'],
      [OID.jsonbArray, [{ an: 'object, not its text' }]],
    ]
    for (const [oid, value] of refused)
      expect(encoderOf(oid)!(value), String(value)).toBeUndefined()
    expect(encoderOf(OID.int2Array)!([])).toEqual(
      // no dimensions, no NULLs, element type int2
      Buffer.from([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 21]),
    )
  })

  // The embedded engine takes no wire protocol: PostgreSQL's alone.
  if (engine === 'postgres') {
    let testDb: TestDatabase
    beforeAll(async () => {
      testDb = await createTestDatabase({ empty: true })
    })
    afterAll(() => testDb?.drop())

    it('PostgreSQL reads every encoded value back as the value given', async () => {
      const client = new pg.Client({ connectionString: testDb.url })
      await client.connect()
      try {
        // Read back as text by PostgreSQL's own output, compared with the same value sent as
        // text: a wrong byte anywhere shows as a different value or an error.
        for (const { type, oid, values } of CASES) {
          for (const value of values) {
            const bytes = encoderOf(oid)!(value)
            expect(bytes, `${type} ${JSON.stringify(value)}`).toBeInstanceOf(Buffer)
            const binary = await client.query(`SELECT $1::${type}::text AS v`, [bytes])
            const text = await client.query(`SELECT $1::${type}::text AS v`, [value])
            expect(binary.rows[0].v, `${type} ${JSON.stringify(value)}`).toBe(text.rows[0].v)
          }
        }
      } finally {
        await client.end()
      }
    })

    it('prepared statements learn their parameters’ types and keep every value exact', async () => {
      const database = await openDatabase({ databaseUrl: testDb.url, poolSize: 1 })
      try {
        const at = new Date('2026-11-27T01:02:03.456Z')
        const ids = ['0192f3a4-5b6c-7d8e-9fa0-b1c2d3e4f5a6', null]
        // The first run describes the statement; the later ones send binary.
        for (let run = 0; run < 3; run++) {
          const { rows } = await sql<{ at: Date; ids: string; n: number; words: string[] }>`
            SELECT ${at}::timestamptz AS at, ${ids}::uuid[]::text AS ids,
              ${run}::int8 + 1 AS n, ${['a,b', null]}::text[] AS words`.execute(database.db)
          expect(rows[0]).toEqual({
            at,
            ids: '{0192f3a4-5b6c-7d8e-9fa0-b1c2d3e4f5a6,NULL}',
            n: run + 1,
            words: ['a,b', null],
          })
        }
        // Once the types are known, a value that does not fit goes as text: PostgreSQL's answer
        // is the usual one.
        const read = (id: string) =>
          sql<{ u: string }>`SELECT ${id}::uuid AS u`.execute(database.db)
        for (let run = 0; run < 2; run++) {
          expect((await read(ids[0]!)).rows).toEqual([{ u: ids[0] }])
        }
        await expect(read('not-a-uuid')).rejects.toThrow(/invalid input syntax for type uuid/)
      } finally {
        await database.close()
      }
    })
  }
})
