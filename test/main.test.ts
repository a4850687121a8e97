// `npm start` as a new user runs it: an empty data directory, demo data, URLs and log-ins printed;
// and in production mode, what it refuses and what it turns off.
import { type ChildProcess, spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { loadConfig } from '../src/config.ts'
import { signupCreator } from './setup/actors.ts'
import { freePort } from './setup/free-port.ts'
import { checkout, createProduct, pay } from './setup/purchase.ts'
import { eventually, makeClient, startTestService } from './setup/service.ts'
import { startSmtpSink } from './setup/smtp-sink.ts'

const dataDir = mkdtempSync(join(tmpdir(), 'vitrine-start-'))
const productionDir = mkdtempSync(join(tmpdir(), 'vitrine-production-'))
let child: ChildProcess | undefined
afterAll(() => {
  child?.kill('SIGTERM')
  rmSync(dataDir, { recursive: true, force: true })
  rmSync(productionDir, { recursive: true, force: true })
})

describe('npm start on an empty data directory', () => {
  it('seeds demo data, prints the log-ins and serves the demo product', {
    timeout: 90_000,
  }, async () => {
    const port = String(await freePort())
    // A clean environment, as a new user's shell has (vitest itself exports BASE_URL=/).
    const env = {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      PORT: port,
      DATA_DIR: dataDir,
      LOG_LEVEL: 'info',
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
    // Log lines are written in batches (src/app.ts), but a quiet service's line still comes out
    // within a second or so, not only when 4 KiB have gathered or at exit.
    await eventually(async () => output.includes('"url":"/api/v1/products"'), 5_000)
  })
})

describe('production mode (NODE_ENV=production, SPEC §14)', () => {
  it('npm start refuses to run without safe settings, naming every variable', {
    timeout: 60_000,
  }, async () => {
    const start = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
      env: {
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        NODE_ENV: 'production',
        DATA_DIR: productionDir,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let output = ''
    start.stdout!.on('data', (chunk) => (output += chunk))
    start.stderr!.on('data', (chunk) => (output += chunk))
    const code = await new Promise((resolve) => start.on('exit', resolve))
    expect(code).toBe(1)
    for (const variable of ['APP_SECRET', 'PAYMENT_GATEWAY', 'SMTP_URL', 'BASE_URL'])
      expect(output).toContain(`${variable}:`)
    expect(output).not.toContain('    at ')
  })

  it('refuses webhooks to private addresses and accepts a complete configuration', () => {
    const complete = {
      NODE_ENV: 'production',
      APP_SECRET: 'x'.repeat(32),
      PAYMENT_GATEWAY: 'sandbox',
      SMTP_URL: 'smtp://127.0.0.1:2525',
      BASE_URL: 'https://vitrine.example/',
    }
    expect(() => loadConfig({ ...complete, ALLOW_HTTP_WEBHOOKS: '1' })).toThrow(
      /ALLOW_HTTP_WEBHOOKS: must be off/,
    )
    expect(loadConfig(complete)).toMatchObject({
      production: true,
      paymentGateway: 'sandbox',
      baseUrl: 'https://vitrine.example',
    })
    // Development keeps its defaults: the sandbox, no SMTP, localhost.
    expect(loadConfig({})).toMatchObject({ production: false, paymentGateway: 'sandbox' })
  })

  it('with the sandbox chosen: payments work; no clock control, no dev mailbox, no demo data', {
    timeout: 90_000,
  }, async () => {
    const smtp = await startSmtpSink()
    const svc = await startTestService({
      NODE_ENV: 'production',
      PAYMENT_GATEWAY: 'sandbox',
      SMTP_URL: smtp.url,
      BASE_URL: 'https://vitrine.example',
      ALLOW_HTTP_WEBHOOKS: '0',
      SEED_DEMO: '1',
    })
    try {
      // BASE_URL is the public address; the test talks to the listening port.
      const api = makeClient(`http://127.0.0.1:${svc.deps.config.port}`)
      const key = await (await signupCreator(api)).key(['write:products'])
      const product = await createProduct(api, key)
      const order = await checkout(api, product.id)
      expect(order.status).toBe(201)
      expect((await pay(api, order.body.charge_id)).body.callback_status).toBe(200)

      const clock = await api('POST', '/sandbox/clock/advance', { body: { seconds: 60 } })
      expect(clock).toMatchObject({ status: 404, body: { error: 'Not found' } })
      expect((await api('GET', '/api/dev/emails')).status).toBe(404)
      expect((await api('GET', '/dev/mailbox')).status).toBe(404)

      expect(svc.seeded).toEqual({ admin: null, demo: null })
      const health = await api('GET', '/health')
      expect(health.headers.get('strict-transport-security')).toMatch(/^max-age=\d+/)
    } finally {
      await svc.stop()
      await smtp.close()
    }
  })
})
