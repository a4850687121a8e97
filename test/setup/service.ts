// Starts the real service on an ephemeral port over a fresh database; tests talk HTTP to it.
import { randomBytes } from 'node:crypto'
import { loadConfig } from '../../src/config.ts'
import { type RunningService, startService } from '../../src/service.ts'
import { type Contract, contractOf } from './contract.ts'
import { createTestDatabase, type TestDatabase } from './database.ts'

export { engine } from './database.ts'

export interface TestService extends RunningService {
  testDb: TestDatabase
  /** Calls the API over HTTP, parses JSON and checks the answer against /openapi.json. */
  api: ApiClient
  stop(): Promise<void>
}

export type ApiClient = <T = any>(
  method: string,
  path: string,
  opts?: { body?: unknown; key?: string; session?: Session; headers?: Record<string, string> },
) => Promise<{ status: number; body: T; headers: Headers }>

export interface Session {
  cookie: string
  csrf: string
}

/** Test defaults: fast retries and polling, http webhooks to loopback, no demo data. */
export const TEST_ENV = {
  PORT: '0',
  HOST: '127.0.0.1',
  SEED_DEMO: '0',
  LOG_LEVEL: 'silent',
  ALLOW_HTTP_WEBHOOKS: '1',
  WEBHOOK_RETRY_BASE_MS: '50',
  WORKER_POLL_MS: '20',
  SHUTDOWN_GRACE: '1s',
}

export async function startTestService(
  env: Record<string, string> = {},
  testDb?: TestDatabase,
): Promise<TestService> {
  const db = testDb ?? (await createTestDatabase())
  const config = loadConfig({ ...TEST_ENV, APP_SECRET: randomBytes(32).toString('hex'), ...env })
  const service = await startService(config, { database: db.database, logger: false })
  const api = makeClient(service.url)
  return {
    ...service,
    testDb: db,
    api,
    async stop() {
      await service.close()
      if (!testDb) await db.drop()
    },
  }
}

/** A client of the service at `baseUrl` that fails on any answer /openapi.json does not allow. */
export function makeClient(baseUrl: string): ApiClient {
  let contract: Promise<Contract> | undefined
  return async (method, path, opts = {}) => {
    const headers: Record<string, string> = { ...opts.headers }
    if (opts.body !== undefined) headers['content-type'] = 'application/json'
    if (opts.key) headers.authorization = `Bearer ${opts.key}`
    if (opts.session) {
      headers.cookie = opts.session.cookie
      headers['x-csrf-token'] = opts.session.csrf
    }
    const response = await fetch(`${baseUrl}${path}`, {
      method,
      headers,
      body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
      redirect: 'manual',
    })
    const text = await response.text()
    let body: any = text
    try {
      body = text ? JSON.parse(text) : null
    } catch {}
    const json = !!text && !!response.headers.get('content-type')?.includes('application/json')
    contract ??= fetch(`${baseUrl}/openapi.json`).then(async (r) => contractOf(await r.json()))
    ;(await contract).check(method, path, response.status, body, json)
    return { status: response.status, body, headers: response.headers }
  }
}

/** Polls `check` until it returns a truthy value or the time runs out. */
export async function eventually<T>(
  check: () => Promise<T | undefined | null | false>,
  timeoutMs = 10_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs
  let last: unknown
  while (Date.now() < deadline) {
    try {
      const value = await check()
      if (value) return value
    } catch (error) {
      last = error
    }
    await new Promise((r) => setTimeout(r, 25))
  }
  throw new Error(`condition not met within ${timeoutMs} ms${last ? `: ${String(last)}` : ''}`)
}
