// Mail bodies are compressed with lz4 where the server has it, pglz elsewhere (migration 0028).
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { signupCreator } from '../setup/actors.ts'
import { checkout, createProduct, pay } from '../setup/purchase.ts'
import { engine, startTestService, type TestService } from '../setup/service.ts'

let svc: TestService
beforeAll(async () => {
  svc = await startTestService()
})
afterAll(() => svc?.stop())

describe(`mail bodies' compression (${engine})`, () => {
  it('compresses a sale mail body with lz4 on a server built with it, else pglz', async () => {
    const db = svc.testDb.database.db
    const { rows: methods } = await sql<{ lz4: boolean }>`
      SELECT 'lz4' = ANY (enumvals) AS lz4 FROM pg_settings
      WHERE name = 'default_toast_compression'`.execute(db)
    const creator = await signupCreator(svc.api)
    const product = await createProduct(svc.api, await creator.key(['write:products']))
    const created = await checkout(svc.api, product.id)
    expect((await pay(svc.api, created.body.charge_id)).status).toBe(200)

    // A delivery mail is over the ~2 kB at which a row's values are compressed (else: null).
    const { rows } = await sql<{ method: string | null }>`
      SELECT pg_column_compression(html_body) AS method FROM emails
      WHERE dedupe_key = ${`delivery:${created.body.order_id}`}`.execute(db)
    expect(rows).toEqual([{ method: methods[0]!.lz4 ? 'lz4' : 'pglz' }])
  })
})
