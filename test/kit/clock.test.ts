// The clock every process shares (kit/clock.ts): its offset lives in the database, each process
// re-reads it, and an advance must hold in this process from the moment it returns.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { databaseClock } from '../../src/kit/clock.ts'
import { createTestDatabase, engine, type TestDatabase } from '../setup/database.ts'

let testDb: TestDatabase
beforeAll(async () => {
  testDb = await createTestDatabase()
})
afterAll(() => testDb?.drop())

/** This process's offset now, to the millisecond the two readings of Date.now() straddle. */
const offsetOf = (now: () => Date) => now().getTime() - Date.now()

describe(`the shared clock (${engine})`, () => {
  it('a refresh that read the offset before an advance never sets the clock back', async () => {
    // Refreshing every millisecond keeps a read in flight whenever an advance commits.
    const clock = await databaseClock(testDb.database.db, 1)
    let lowestAfterAdvance = Number.POSITIVE_INFINITY
    try {
      for (let i = 1; i <= 60; i++) {
        await clock.advance(1_000)
        const watchUntil = Date.now() + 5
        // After every batch of answers (each refresh that lands), look again.
        while (Date.now() < watchUntil) {
          await new Promise((resolve) => setImmediate(resolve))
          lowestAfterAdvance = Math.min(lowestAfterAdvance, offsetOf(clock.now) - i * 1_000)
        }
      }
    } finally {
      clock.stop?.()
    }
    // A stale refresh would show the previous offset: a second behind.
    expect(lowestAfterAdvance).toBeGreaterThan(-500)
  })
})
