// Once per test run: a migrated database every test file's fresh database is copied from,
// instead of each one building PostgreSQL's catalog and running every migration again
// (PGlite: a dumped data directory, loaded in under a second against ~3 s for initdb;
// PostgreSQL: a template database).
import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { TestProject } from 'vitest/node'
import { migrate, openDatabase } from '../../src/kit/db.ts'
import { dropDatabase, serverUrl, urlOf, withAdmin } from './database.ts'

declare module 'vitest' {
  export interface ProvidedContext {
    /** PGlite: file of the migrated data directory. PostgreSQL: the template database. */
    migratedDatabase: string
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  if (!serverUrl) {
    const database = await openDatabase({ dataDir: null })
    await migrate(database)
    const dir = mkdtempSync(join(tmpdir(), 'vitrine-test-'))
    const file = join(dir, 'migrated.tar')
    const dump = await database.dump?.()
    if (!dump) throw new Error('PGlite gives its dump')
    writeFileSync(file, Buffer.from(await dump.arrayBuffer()))
    await database.close()
    project.provide('migratedDatabase', file)
    return async () => rmSync(dir, { recursive: true, force: true })
  }
  const name = `vitrine_tpl_${randomBytes(6).toString('hex')}`
  await withAdmin((admin) => admin.query(`CREATE DATABASE ${name}`))
  const database = await openDatabase({ databaseUrl: urlOf(name), poolSize: 1 })
  await migrate(database)
  await database.close()
  project.provide('migratedDatabase', name)
  return () => dropDatabase(name)
}
