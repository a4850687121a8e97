// The hosted checkout stays light (issue 12): its first load — the HTML and every script it
// loads from us, as sent, uncompressed (the service does not compress) — is under 60 KB, for
// the heaviest form the page has: every method, twelve installments, two plans.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { signupCreator } from '../setup/actors.ts'
import { createProduct } from '../setup/purchase.ts'
import { engine, startTestService, type TestService } from '../setup/service.ts'

const LIMIT = 60 * 1024

let svc: TestService
let slug: string
beforeAll(async () => {
  svc = await startTestService()
  const key = await (await signupCreator(svc.api)).key(['write:products'])
  ;({ slug } = await createProduct(svc.api, key, {
    payment_methods: ['pix', 'card', 'boleto'],
    max_installments: 12,
    plans: [
      { name: 'À vista', price: 497 },
      { name: 'Com bônus', price: 697 },
    ],
  }))
})
afterAll(() => svc?.stop())

const bytes = async (res: Response) => (await res.arrayBuffer()).byteLength

describe(`the checkout's first load (${engine})`, () => {
  it('HTML plus its script is under 60 KB, uncompressed', async () => {
    const page = await fetch(`${svc.url}/checkout/${slug}`)
    expect(page.status).toBe(200)
    expect(page.headers.get('content-encoding')).toBeNull()
    const html = await page.text()
    const scripts = [...html.matchAll(/<script src="(\/assets\/[^"]+)"/g)].map((m) => m[1]!)
    expect(scripts).toHaveLength(1)
    let total = Buffer.byteLength(html)
    for (const src of scripts) {
      const file = await fetch(`${svc.url}${src}`)
      expect(file.status).toBe(200)
      total += await bytes(file)
    }
    console.info(`checkout first load: ${total} bytes (${scripts.length} script)`)
    expect(total).toBeGreaterThan(0)
    expect(total).toBeLessThan(LIMIT)
  })
})
