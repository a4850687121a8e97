// An unpaid PIX in the hosted checkout: the countdown runs out or the order expires on the
// server, the page says so in pt-BR and offers to start again with the form still filled in;
// while the buyer is away paying (the page hidden) it does not poll, and when they come back it
// looks at once (browser/follow-order.ts).
import type { Page } from 'playwright-core'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { pollDelay } from '../../src/web/checkout/browser/follow-order.ts'
import { signupCreator } from '../setup/actors.ts'
import { openBrowser, screenshot, screenshotName, type TestBrowser } from '../setup/browser.ts'
import { engine, startTestService, type TestService } from '../setup/service.ts'
import { contrastFailures, focusedId, scrollsSideways } from './a11y.ts'
import { type CheckoutProduct, checkoutProducts, fillBuyer } from './checkout-fixtures.ts'

let svc: TestService
let oneTime: CheckoutProduct
let browser: TestBrowser | undefined

beforeAll(async () => {
  svc = await startTestService({ PIX_EXPIRES_AFTER: '30m' })
  const key = await (await signupCreator(svc.api)).key(['write:products'])
  ;({ oneTime } = await checkoutProducts(svc.api, key))
})
afterAll(() => svc?.stop())
afterEach(({ task }) => browser?.close(`final-${screenshotName(task.name)}`))

async function generatePix(email: string, beforeLoad?: (b: TestBrowser) => Promise<void>) {
  browser = await openBrowser()
  const { page } = browser
  await beforeLoad?.(browser)
  await page.goto(`${svc.url}/checkout/${oneTime.slug}`)
  await fillBuyer(page, email)
  const created = page.waitForResponse((r) => r.url().endsWith('/api/checkout/create'))
  await page.getByRole('button', { name: 'Gerar PIX' }).click()
  const order = await (await created).json()
  await page.locator('#pix').waitFor({ state: 'visible' })
  return { page, order }
}

describe(`PIX expiry in the hosted checkout (${engine})`, () => {
  it('the order expired on the server: the page says so and starts again with a new PIX', async () => {
    const { page, order } = await generatePix('carla.expirou@example.com')
    const expired = await svc.api('POST', `/sandbox/charges/${order.charge_id}/expire`)
    expect(expired.body.callback_status).toBe(200)

    const notice = page.getByRole('region', { name: 'O código PIX expirou' })
    await notice.waitFor({ state: 'visible', timeout: 10_000 })
    expect(await focusedId(page)).toBe('expirado')
    expect(await page.locator('#pix').isHidden()).toBe(true)
    expect(await notice.textContent()).toContain('Nenhuma cobrança foi feita.')
    expect(await contrastFailures(page)).toEqual([])
    expect(await scrollsSideways(page)).toBe(false)
    await screenshot(page, 'checkout-pix-expired')

    await notice.getByRole('button', { name: 'Começar de novo' }).click()
    expect(await notice.isHidden()).toBe(true)
    expect(await focusedId(page)).toBe('pagar')
    expect(await page.getByLabel('E-mail').inputValue()).toBe('carla.expirou@example.com')
    const again = page.waitForResponse((r) => r.url().endsWith('/api/checkout/create'))
    await page.getByRole('button', { name: 'Gerar PIX' }).click()
    const second = await (await again).json()
    expect(second.order_id).not.toBe(order.order_id)
    await page.locator('#pix').waitFor({ state: 'visible' })
    expect(await page.locator('#pix-codigo').inputValue()).toBe(second.pix.copy_paste)
    expect(await page.getByRole('timer').textContent()).toMatch(/^(29|30):\d\d$/)
  })

  it('the countdown runs out: 00:00 and the same notice, without waiting for the server', async () => {
    const { page } = await generatePix('carla.relogio@example.com', (b) => b.page.clock.install())
    expect(await page.getByRole('timer').textContent()).toMatch(/^(29|30):\d\d$/)
    await page.clock.fastForward('10:00')
    expect(await page.getByRole('timer').textContent()).toMatch(/^(19|20):\d\d$/)
    expect(await page.locator('#expirado').isHidden()).toBe(true)
    await page.clock.fastForward('20:01')
    await page
      .getByRole('region', { name: 'O código PIX expirou' })
      .waitFor({ state: 'visible', timeout: 5_000 })
    expect(await page.locator('#pix').isHidden()).toBe(true)
    expect(await page.locator('#pix-tempo').textContent()).toBe('00:00')
    expect(await focusedId(page)).toBe('expirado')
  })

  it('polls not at all while the page is hidden, and at once when it shows again, paid meanwhile', async () => {
    const polls: string[] = []
    const { page, order } = await generatePix('carla.no.banco@example.com', async (b) => {
      await b.page.clock.install()
      b.page.on('request', (r) => {
        if (/\/api\/orders\/[^/]+\/status$/.test(r.url())) polls.push(r.url())
      })
    })
    // The first look, as the PIX is shown; then time stands still, so only the page's own
    // handlers can poll.
    await expect.poll(() => polls.length).toBe(1)
    await page.clock.pauseAt((await page.evaluate(() => Date.now())) + 100)
    await setHidden(page, true)
    await page.clock.runFor('05:00')
    const paid = await svc.api('POST', `/sandbox/charges/${order.charge_id}/pay`)
    expect(paid.body.callback_status).toBe(200)
    await page.clock.runFor('05:00')
    expect(polls).toHaveLength(1)
    expect(page.url()).toContain(`/checkout/${oneTime.slug}`)

    await setHidden(page, false)
    await page.waitForURL(/\/success\?order_id=/, { timeout: 5_000 })
    expect(polls).toHaveLength(2)
  })

  it('polls every 2 s for two minutes, then every 5 s, then every 15 s after ten', () => {
    expect([0, 119_999, 120_000, 599_999, 600_000, 1_800_000].map(pollDelay)).toEqual([
      2_000, 2_000, 5_000, 5_000, 15_000, 15_000,
    ])
  })
})

/** What the browser does when the buyer switches to another app and back. */
async function setHidden(page: Page, hidden: boolean) {
  await page.evaluate((hidden) => {
    Object.defineProperty(document, 'hidden', { configurable: true, get: () => hidden })
    Object.defineProperty(document, 'visibilityState', {
      configurable: true,
      get: () => (hidden ? 'hidden' : 'visible'),
    })
    document.dispatchEvent(new Event('visibilitychange'))
  }, hidden)
}
