// Scenario: the hosted checkout page. Server side: GET /checkout/<slug> under autocannon
// (10 connections), latency percentiles and throughput. Client side: the bytes a first visit
// transfers (HTML, scripts, styles, images, headers included), counted by real Chromium.
import { randomBytes } from 'node:crypto'
import autocannon from 'autocannon'
import { openBrowser } from '../../test/setup/browser.ts'
import { request } from '../lib/http.ts'
import { benchCreator, startBenchService } from '../lib/service.ts'

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
  const bench = await startBenchService(opts.engine)
  try {
    const url = bench.service.url
    const creator = await benchCreator(url, ['write:products'], 4990)
    const slug = `pagina-${randomBytes(4).toString('hex')}`
    // A recurring product with two plans: every payment method and the plan selector render.
    await request(url, 'POST', '/api/v1/products', {
      headers: { authorization: `Bearer ${creator.key}` },
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
    const pageUrl = `${url}/checkout/${slug}`
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
    await bench.stop()
  }
}
