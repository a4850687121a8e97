// timestamptz read without pg's regular expressions (kit/pg-timestamp.ts): on every text
// PostgreSQL writes, in zones with whole-hour, half-hour and quarter-hour offsets and a
// historical one with seconds, it gives the instant pg's own parser gives.
import fc from 'fast-check'
import { sql } from 'kysely'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { timestamptzParser } from '../../src/kit/pg-timestamp.ts'
import { createTestDatabase, engine, type TestDatabase } from '../setup/database.ts'

const pgParser = pg.types.getTypeParser(1184, 'text') as (text: string) => unknown
const read = timestamptzParser(pgParser)

const ZONES = [
  'UTC',
  'America/Sao_Paulo', // -03, -02 in old summers, -03:06:28 before 1914
  'Asia/Kolkata', // +05:30
  'Asia/Kathmandu', // +05:45
  'America/St_Johns', // -03:30
]

/** Instants from year 1000 to 9999 with microseconds, as ISO text PostgreSQL reads. */
const instants = fc.sample(
  fc.record({
    ms: fc.integer({ min: Date.UTC(1000, 0, 1), max: Date.UTC(9999, 11, 31) }),
    micros: fc.integer({ min: 0, max: 999 }),
  }),
  { numRuns: 400, seed: 13 },
)
const isoOf = ({ ms, micros }: { ms: number; micros: number }) =>
  new Date(ms).toISOString().replace('Z', `${String(micros).padStart(3, '0')}Z`)

let testDb: TestDatabase
beforeAll(async () => {
  testDb = await createTestDatabase({ empty: true })
})
afterAll(() => testDb?.drop())

describe(`timestamptz text read by hand (${engine})`, () => {
  it.each(ZONES)('reads what PostgreSQL writes in %s as pg does', async (zone) => {
    const texts = await testDb.database.db.transaction().execute(async (tx) => {
      await sql.raw(`SET LOCAL TimeZone = '${zone}'`).execute(tx)
      const { rows } = await sql<{ text: string }>`
        SELECT t::text AS text FROM unnest(${[
          ...instants.map(isoOf),
          '2026-11-27 10:00:00Z', // whole seconds: no fraction written
          '2026-11-27 10:00:00.5Z',
          '1910-01-01 00:00:00Z',
        ]}::timestamptz[]) AS t`.execute(tx)
      return rows.map((r) => r.text)
    })
    // Most go the quick way (before ~1900 a zone's offset has seconds: pg's way).
    const plain = texts.filter((t) => /[+-]\d\d(:\d\d)?$/.test(t))
    expect(plain.length).toBeGreaterThan(instants.length * 0.8)
    for (const text of texts) expect(read(text), text).toEqual(pgParser(text))
    // The instant itself, to the millisecond (microseconds truncated).
    instants.forEach((instant, i) => {
      expect((read(texts[i]!) as Date).getTime()).toBe(instant.ms)
    })
  })

  it('leaves the other shapes to pg', () => {
    for (const text of [
      'infinity',
      '-infinity',
      '0044-03-15 12:00:00+00 BC',
      '0099-01-01 00:00:00+00',
      '1890-01-01 00:00:00-03:06:28',
      '2026-11-27 10:00:00', // no zone: local time, as pg reads it
      '2026-13-45 10:00:00+00',
      '2026-11-27 10:00:00+0', // cut short
      '2026-11-27 10:00:00+05:3',
      '2026-11-27 10:00',
    ])
      expect(read(text), text).toEqual(pgParser(text))
  })
})
