// Scenario: the creator's dashboard beside the hosted checkout, as a first visit in real
// Chromium sees them (empty cache each time): bytes transferred (HTML, scripts, styles,
// headers) and the time until the page is usable, i.e. DOMContentLoaded: the page script is a
// classic script at the end of <body>, so by then it has run and every form is wired. The
// dashboard is measured logged in, for an account with sales on it.
import { request } from '../lib/http.ts'
import { benchCreator, pixBuyer, startBenchService } from '../lib/service.ts'
import { firstLoad } from './checkout-page.ts'

export interface PageLoad {
  page: string
  bytes: number
  requests: number
  /** Median of the cold loads, ms from navigation start to DOMContentLoaded's end. */
  usableMs: number
}

const COLD_LOADS = 5
const SALES = 20

async function measure(page: string, url: string, cookies: { name: string; value: string }[]) {
  const loads = []
  for (let i = 0; i < COLD_LOADS; i++) loads.push(await firstLoad(url, cookies))
  const times = loads.map((l) => l.usableMs).sort((a, b) => a - b)
  const first = loads[0]!
  return { page, bytes: first.bytes, requests: first.requests, usableMs: times[COLD_LOADS >> 1]! }
}

export async function dashboardPage(): Promise<PageLoad[]> {
  const bench = await startBenchService('pglite')
  try {
    const url = bench.service.url
    const creator = await benchCreator(url, ['write:products', 'read:products'], 4990)
    for (let i = 0; i < SALES; i++) {
      const created = await request(url, 'POST', '/api/checkout/create', {
        body: pixBuyer(creator.productId, i),
      })
      await request(url, 'POST', `/sandbox/charges/${created.body.charge_id}/pay`)
    }
    const product = await request(url, 'GET', `/api/v1/products/${creator.productId}`, {
      headers: { authorization: `Bearer ${creator.key}` },
    })
    const cookies = creator.cookie.split('; ').map((pair) => {
      const [name, ...value] = pair.split('=')
      return { name: name!, value: value.join('=') }
    })
    return [
      await measure('checkout (buyer)', product.body.data.checkout_url, []),
      await measure('dashboard overview (creator, logged in)', `${url}/dashboard`, cookies),
    ]
  } finally {
    await bench.stop()
  }
}
