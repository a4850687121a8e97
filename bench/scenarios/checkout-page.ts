// Scenario: the hosted checkout page. Server side: GET /checkout/<slug> under autocannon
// (10 connections), latency percentiles and throughput. Client side: the bytes a first visit
// transfers (HTML, scripts, styles, images, headers included), counted by real Chromium.
import { randomBytes } from 'node:crypto'
import autocannon from 'autocannon'
import { loadConfig } from '../../src/config.ts'
import { startService } from '../../src/service.ts'
import { openBrowser } from '../../test/setup/browser.ts'
import { openBenchDatabase } from '../lib/databases.ts'
import { request } from '../lib/http.ts'

export interface CheckoutPageResult {
  engine: 'pglite' | 'postgres'
  requestsPerSecond: number
  p50: number
  p99: number
  errors: number
  firstLoadBytes: number
  firstLoadRequests: number
}

/** The first visit of a new buyer (empty cache), as Chromium's network layer counts it. */
export async function firstLoadBytes(url: string): Promise<{ bytes: number; requests: number }> {
  const browser = await openBrowser()
  try {
    const cdp = await browser.context.newCDPSession(browser.page)
    await cdp.send('Network.enable')
    let bytes = 0
    let requests = 0
    cdp.on('Network.loadingFinished', (event) => {
      bytes += event.encodedDataLength
      requests++
    })
    await browser.page.goto(url, { waitUntil: 'networkidle' })
    return { bytes, requests }
  } finally {
    await browser.close()
  }
}

export async function checkoutPage(opts: {
  engine: 'pglite' | 'postgres'
  seconds: number
}): Promise<CheckoutPageResult> {
  const db = await openBenchDatabase(opts.engine)
  const config = loadConfig({
    PORT: '0',
    HOST: '127.0.0.1',
    SEED_DEMO: '0',
    LOG_LEVEL: 'silent',
    APP_SECRET: randomBytes(32).toString('hex'),
  })
  const service = await startService(config, { database: db.database, logger: false })
  try {
    const slug = await createRecurringProduct(service.url)
    const pageUrl = `${service.url}/checkout/${slug}`
    const load = await firstLoadBytes(pageUrl)
    const result = await autocannon({ url: pageUrl, connections: 10, duration: opts.seconds })
    return {
      engine: opts.engine,
      requestsPerSecond: result.requests.average,
      p50: result.latency.p50,
      p99: result.latency.p99,
      errors: result.errors + result.non2xx,
      firstLoadBytes: load.bytes,
      firstLoadRequests: load.requests,
    }
  } finally {
    await service.close()
    await db.drop()
  }
}

/** A recurring product (every payment method on the page) with two plans, as a creator makes it. */
async function createRecurringProduct(url: string): Promise<string> {
  const email = `bench-${randomBytes(4).toString('hex')}@example.com`
  const signup = await request(url, 'POST', '/api/auth/signup', {
    body: { name: 'Bench', email, password: 'bench-password-1' },
  })
  const cookie = String(signup.headers['set-cookie']?.map((c) => c.split(';')[0]).join('; '))
  const key = await request(url, 'POST', `/api/accounts/${signup.body.account.id}/api-keys`, {
    headers: { cookie, 'x-csrf-token': signup.body.csrf_token },
    body: { name: 'bench', scopes: ['write:products'] },
  })
  const slug = `pagina-${randomBytes(4).toString('hex')}`
  await request(url, 'POST', '/api/v1/products', {
    headers: { authorization: `Bearer ${key.body.key}` },
    body: {
      name: 'Mentoria de Fotografia',
      slug,
      description: 'Encontros mensais ao vivo e a comunidade de alunos.',
      billing: 'recurring',
      plans: [
        { name: 'Mensal', price: 49.9, interval: 'month' },
        { name: 'Anual', price: 479, interval: 'year' },
      ],
    },
  })
  return slug
}
