// A fresh database for each test file: an in-memory PGlite by default, or a new database on
// the PostgreSQL server named by TEST_DATABASE_URL / DATABASE_URL (dropped afterwards).
import { randomBytes } from 'node:crypto'
import pg from 'pg'
import { type Database, openDatabase } from '../../src/kit/db.ts'

export const serverUrl = process.env.TEST_DATABASE_URL || process.env.DATABASE_URL || undefined
export const engine = serverUrl ? 'postgres' : 'pglite'

export interface TestDatabase {
  database: Database
  /** Connection string of the fresh database (postgres only), for a second process. */
  url: string | undefined
  drop(): Promise<void>
}

export async function createTestDatabase(): Promise<TestDatabase> {
  if (!serverUrl) {
    const database = await openDatabase({ dataDir: null })
    return { database, url: undefined, drop: () => database.close() }
  }
  const name = `vitrine_t_${randomBytes(6).toString('hex')}`
  const admin = new pg.Client({ connectionString: serverUrl })
  await admin.connect()
  await admin.query(`CREATE DATABASE ${name}`)
  await admin.end()
  const url = new URL(serverUrl)
  url.pathname = `/${name}`
  const database = await openDatabase({ databaseUrl: url.toString(), poolSize: 20 })
  return {
    database,
    url: url.toString(),
    async drop() {
      await database.close()
      const client = new pg.Client({ connectionString: serverUrl })
      await client.connect()
      // The pool's sockets may still be closing: forcing the drop now would kill their backends
      // and surface as unhandled "terminating connection" errors in the test run.
      for (let i = 0; i < 100; i++) {
        const { rows } = await client.query(
          'SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1',
          [name],
        )
        if (rows[0].n === 0) break
        await new Promise((r) => setTimeout(r, 20))
      }
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
      await client.end()
    },
  }
}
