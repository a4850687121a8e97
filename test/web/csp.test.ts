// The security headers in real Chromium: pages that no other browser test opens load without a
// CSP refusal (openBrowser's close() fails on any), and another site can frame the hosted
// checkout but not /admin, whose one-click buttons pay withdrawals.
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { signupCreator } from '../setup/actors.ts'
import { openBrowser, screenshot } from '../setup/browser.ts'
import { checkout, createProduct } from '../setup/purchase.ts'
import { engine, startTestService, type TestService } from '../setup/service.ts'

let svc: TestService
let product: { id: string; slug: string; name: string }
beforeAll(async () => {
  svc = await startTestService()
  const key = await (await signupCreator(svc.api)).key(['write:products'])
  product = await createProduct(svc.api, key)
})
afterAll(() => svc?.stop())

describe(`pages under the Content-Security-Policy (${engine})`, () => {
  it('the members area and the dev mailbox, with an e-mail open, load without a refusal', async () => {
    const email = `csp-${Date.now()}@example.com`
    expect((await checkout(svc.api, product.id, { email })).status).toBe(201)
    const browser = await openBrowser()
    try {
      const { page } = browser
      await page.goto(`${svc.url}/members`)
      await expect
        .poll(() => page.getByRole('heading', { level: 1 }).textContent())
        .toBe('Área de membros')
      await page.goto(`${svc.url}/dev/mailbox?to=${encodeURIComponent(email)}`)
      await page.locator('summary').first().click()
      const mail = page.frameLocator('iframe').first()
      await expect.poll(() => mail.getByRole('link').first().textContent()).toBeTruthy()
      await screenshot(page, 'csp-dev-mailbox')
    } finally {
      await browser.close()
    }
  })

  it('another site can frame the checkout but not /admin', async () => {
    // A creator's site on another origin, framing both pages.
    const shop = createServer((_request, response) => {
      response.setHeader('content-type', 'text/html; charset=utf-8')
      response.end(`<iframe id="checkout" src="${svc.url}/checkout/${product.slug}"></iframe>
<iframe id="admin" src="${svc.url}/admin"></iframe>`)
    })
    await new Promise<void>((resolve) => shop.listen(0, '127.0.0.1', resolve))
    const browser = await openBrowser()
    try {
      const { page } = browser
      await page.goto(`http://127.0.0.1:${(shop.address() as AddressInfo).port}/`)
      await expect
        .poll(() => page.frameLocator('#checkout').getByRole('heading', { level: 1 }).textContent())
        .toBe(product.name)
      await expect
        .poll(() => browser.cspViolations.join('\n'))
        .toMatch(/Framing .* violates .*frame-ancestors 'none'/)
      expect(
        await page.frameLocator('#admin').getByRole('button', { name: 'Entrar' }).count(),
      ).toBe(0)
      browser.cspViolations.length = 0
    } finally {
      await browser.close()
      shop.close()
    }
  })
})
