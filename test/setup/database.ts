// A fresh database for each test file: an in-memory PGlite by default, or a new database on
// the PostgreSQL server named by TEST_DATABASE_URL / DATABASE_URL (dropped afterwards). Both
// start as a copy of the migrated database the run's global setup made (global.ts).
import { randomBytes } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { sql } from 'kysely'
import pg from 'pg'
import { inject } from 'vitest'
import { type Database, type Executor, openDatabase } from '../../src/kit/db.ts'

export const serverUrl = process.env.TEST_DATABASE_URL || process.env.DATABASE_URL || undefined
export const engine = serverUrl ? 'postgres' : 'pglite'

export interface TestDatabase {
  database: Database
  /** Connection string of the fresh database (postgres only), for a second process. */
  url: string | undefined
  drop(): Promise<void>
}

/** The migrated PGlite data directory, read once per test worker process. */
let snapshot: Blob | undefined

/** `empty`: without the migrations, for the tests of migrating itself. */
export async function createTestDatabase(opts: { empty?: boolean } = {}): Promise<TestDatabase> {
  const migrated = inject('migratedDatabase')
  if (!serverUrl) {
    if (!opts.empty) snapshot ??= new Blob([readFileSync(migrated)])
    const database = await openDatabase({ dataDir: null, ...(!opts.empty && { snapshot }) })
    return { database, url: undefined, drop: () => database.close() }
  }
  const name = `vitrine_t_${randomBytes(6).toString('hex')}`
  const template = opts.empty ? '' : ` TEMPLATE ${migrated}`
  await withAdmin((admin) => admin.query(`CREATE DATABASE ${name}${template}`))
  const url = urlOf(name)
  const database = await openDatabase({ databaseUrl: url, poolSize: 20 })
  return {
    database,
    url,
    async drop() {
      await database.close()
      await dropDatabase(name)
    },
  }
}

/** The server's URL with its database replaced by `name`. */
export function urlOf(name: string): string {
  const url = new URL(serverUrl as string)
  url.pathname = `/${name}`
  return url.toString()
}

/** Drops `name` once the connections a closed pool leaves behind are gone. */
export async function dropDatabase(name: string): Promise<void> {
  await withAdmin(async (admin) => {
    // The pool's sockets may still be closing: forcing the drop now would kill their backends
    // and surface as unhandled "terminating connection" errors in the test run.
    for (let i = 0; i < 100; i++) {
      const { rows } = await admin.query(
        'SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1',
        [name],
      )
      if (rows[0].n === 0) break
      await new Promise((r) => setTimeout(r, 20))
    }
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
  })
}

/** Runs `fn` on a connection to the server's own database (CREATE and DROP DATABASE). */
export async function withAdmin<T>(fn: (admin: pg.Client) => Promise<T>): Promise<T> {
  const admin = new pg.Client({ connectionString: serverUrl })
  await admin.connect()
  try {
    return await fn(admin)
  } finally {
    await admin.end()
  }
}

/** True once some session of this database waits for a lock (PostgreSQL only). */
export async function blockedOnALock(db: Executor): Promise<boolean> {
  const { rows } = await sql<{ n: number }>`
    SELECT count(*)::int AS n FROM pg_stat_activity
    WHERE datname = current_database() AND wait_event_type = 'Lock'`.execute(db)
  return rows[0]!.n > 0
}
