// `npm start` as a new user runs it: an empty data directory, demo data, URLs and log-ins printed.
import { type ChildProcess, spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { eventually, makeClient } from './setup/service.ts'

const dataDir = mkdtempSync(join(tmpdir(), 'vitrine-start-'))
let child: ChildProcess | undefined
afterAll(() => {
  child?.kill('SIGTERM')
  rmSync(dataDir, { recursive: true, force: true })
})

describe('npm start on an empty data directory', () => {
  it('seeds demo data, prints the log-ins and serves the demo product', {
    timeout: 90_000,
  }, async () => {
    const port = String(40_000 + Math.floor(Math.random() * 20_000))
    // A clean environment, as a new user's shell has (vitest itself exports BASE_URL=/).
    const env = {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      PORT: port,
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
    }
    child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let output = ''
    child.stderr!.on('data', (chunk) => {
      output += chunk
    })
    child.stdout!.on('data', (chunk) => {
      output += chunk
    })
    await eventually(async () => output.includes('Dev mailbox'), 60_000).catch((error) => {
      throw new Error(`${error.message}\n${output}`)
    })
    expect(output).toContain(`http://localhost:${port}/docs`)
    expect(output).toContain('criadora@vitrine.local / vitrine-demo-123')
    expect(output).toContain('admin@vitrine.local / vitrine-admin-123')
    const key = /Demo API key\s+(vt_\S+)/.exec(output)?.[1]
    expect(key).toBeDefined()

    const api = makeClient(`http://localhost:${port}`)
    const products = await api('GET', '/api/v1/products', { key })
    expect(products.status).toBe(200)
    expect(products.body.data.map((p: { slug: string }) => p.slug)).toContain(
      'fotografia-com-celular',
    )
  })
})
