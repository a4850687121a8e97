// Fresh databases for a bench run: PGlite in memory, or a new database on the local server.
import { randomBytes } from 'node:crypto'
import pg from 'pg'
import { type Database, openDatabase } from '../../src/kit/db.ts'

export const SERVER_URL =
  process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres'

export async function serverReachable(): Promise<boolean> {
  const client = new pg.Client({ connectionString: SERVER_URL, connectionTimeoutMillis: 2000 })
  try {
    await client.connect()
    await client.end()
    return true
  } catch {
    return false
  }
}

/** Runs one statement on the server's admin database; returns its row count. */
async function admin(sql: string): Promise<number> {
  const client = new pg.Client({ connectionString: SERVER_URL })
  await client.connect()
  try {
    return (await client.query(sql)).rowCount ?? 0
  } finally {
    await client.end()
  }
}

/** A database on the server; the caller drops it with the returned function. */
export async function createServerDatabase(
  prefix: string,
): Promise<{ name: string; url: string; drop(): Promise<void> }> {
  const name = `${prefix}_${randomBytes(4).toString('hex')}`
  await admin(`CREATE DATABASE ${name}`)
  const url = new URL(SERVER_URL)
  url.pathname = `/${name}`
  return {
    name,
    url: url.toString(),
    async drop() {
      // Closed pool sockets may linger a moment; forcing the drop now kills their backends
      // and a pool emits that as an unhandled error.
      for (let i = 0; i < 100; i++) {
        const sessions = await admin(
          `SELECT 1 FROM pg_stat_activity WHERE datname = '${name}' AND pid <> pg_backend_pid()`,
        )
        if (!sessions) break
        await new Promise((r) => setTimeout(r, 20))
      }
      await admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
    },
  }
}

export async function openBenchDatabase(
  engine: 'pglite' | 'postgres',
): Promise<{ database: Database; url: string | undefined; drop(): Promise<void> }> {
  if (engine === 'pglite') {
    const database = await openDatabase({ dataDir: null })
    return { database, url: undefined, drop: () => database.close() }
  }
  const created = await createServerDatabase('vitrine_bench')
  const database = await openDatabase({ databaseUrl: created.url, poolSize: 20 })
  return {
    database,
    url: created.url,
    async drop() {
      await database.close()
      await created.drop()
    },
  }
}
