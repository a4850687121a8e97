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

/**
 * A first visit (empty cache), as Chromium's network layer counts it: bytes and requests, and
 * when the page was usable (DOMContentLoaded's end: page scripts are classic scripts at the end
 * of <body>, so by then they have run). `cookies`: a logged-in visit's session.
 */
export async function firstLoad(
  url: string,
  cookies: { name: string; value: string }[] = [],
): Promise<{ bytes: number; requests: number; usableMs: number }> {
  const browser = await openBrowser({ width: 1280, height: 800 })
  try {
    if (cookies.length)
      await browser.context.addCookies(cookies.map((c) => ({ ...c, url: new URL(url).origin })))
    const cdp = await browser.context.newCDPSession(browser.page)
    await cdp.send('Network.enable')
    let bytes = 0
    let requests = 0
    cdp.on('Network.loadingFinished', (event) => {
      bytes += event.encodedDataLength
      requests++
    })
    const response = await browser.page.goto(url, { waitUntil: 'networkidle' })
    if (response?.status() !== 200) throw new Error(`${url}: HTTP ${response?.status()}`)
    const usableMs = await browser.page.evaluate(() => {
      const nav = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming
      return nav.domContentLoadedEventEnd
    })
    return { bytes, requests, usableMs }
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
    const load = await firstLoad(pageUrl)
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
