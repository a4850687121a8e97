// The checkout page with a gateway that tokenizes cards in the browser (MercadoPago.js): the
// script is loaded from the gateway only then and only on the checkout (its CSP opens just that
// origin), the card becomes a token at the gateway, and only the token reaches our server. The
// script is the Mercado Pago fake's stand-in (`${fake.url}/js/v2`), over real HTTP.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { type FakeMercadoPago, startFakeMercadoPago } from '../fakes/mercadopago.ts'
import { signupCreator } from '../setup/actors.ts'
import { openBrowser, screenshot, screenshotName } from '../setup/browser.ts'
import { type BrowserTokenGateway, useBrowserTokenEntry } from '../setup/card-data-gateway.ts'
import { createProduct } from '../setup/purchase.ts'
import { engine, startTestService, type TestService } from '../setup/service.ts'
import { fillBuyer } from './checkout-fixtures.ts'

let svc: TestService
let mp: FakeMercadoPago
let gateway: BrowserTokenGateway
let browser: Awaited<ReturnType<typeof openBrowser>>
let withCard: { id: string; slug: string }
let pixOnly: { id: string; slug: string }

beforeAll(async () => {
  svc = await startTestService()
  mp = await startFakeMercadoPago()
  const key = await (await signupCreator(svc.api)).key(['write:products'])
  withCard = await createProduct(svc.api, key, {
    name: 'Curso de Fotografia',
    plans: [{ name: 'Vitalício', price: 250 }],
    payment_methods: ['pix', 'card'],
    max_installments: 4,
  })
  pixOnly = await createProduct(svc.api, key, { name: 'E-book de Receitas' })
  gateway = useBrowserTokenEntry(svc.deps.gateway, {
    scriptUrl: `${mp.url}/js/v2`,
    publicKey: mp.publicKey,
  })
})
afterAll(async () => {
  gateway?.restore()
  await mp?.close()
  await svc?.stop()
})
beforeEach(async () => {
  browser = await openBrowser()
})
afterEach(({ task }) => browser?.close(`final-${screenshotName(task.name)}`))

const cspOf = async (path: string) =>
  (await fetch(`${svc.url}${path}`)).headers.get('content-security-policy') ?? ''

describe(`checkout with MercadoPago.js (${engine})`, () => {
  it("opens the CSP to the gateway's origin only on a checkout that takes cards", async () => {
    const origin = new URL(mp.url).origin
    const checkout = await cspOf(`/checkout/${withCard.slug}`)
    expect(checkout).toContain(`script-src 'self' ${origin}`)
    expect(checkout).toContain(`connect-src 'self' ${origin}`)
    for (const path of [`/checkout/${pixOnly.slug}`, '/members', '/dashboard']) {
      expect(await cspOf(path), path).not.toContain(origin)
    }
  })

  it('tokenizes the card at the gateway and posts only the token, with the installments', async () => {
    const { page } = browser
    const refused: string[] = []
    page.on('console', (m) => {
      if (/Content Security Policy/i.test(m.text())) refused.push(m.text())
    })
    await page.goto(`${svc.url}/checkout/${pixOnly.slug}`)
    expect(await page.locator(`script[src="${mp.url}/js/v2"]`).count()).toBe(0)
    await page.goto(`${svc.url}/checkout/${withCard.slug}`)
    expect(await page.locator(`script[src="${mp.url}/js/v2"]`).count()).toBe(1)
    await fillBuyer(page, 'carla.mp@example.com')
    await page.getByLabel('Cartão de crédito').check()
    await page.getByLabel('Número do cartão').fill('4509 9535 6623 3704')
    await page.getByLabel('Nome impresso no cartão').fill('APRO')
    await page.getByLabel('Validade (MM/AA)').fill('11/30')
    await page.getByLabel('CVV').fill('123')
    await page.getByLabel('Parcelas').selectOption('4')
    const request = page.waitForRequest((r) => r.url().endsWith('/api/checkout/create'))
    await page.getByRole('button', { name: 'Pagar com cartão' }).click()
    const sent = (await request).postDataJSON()
    // `<token>:<payment_method_id>:<issuer_id>`, the form the Mercado Pago adapter reads.
    expect(sent).toMatchObject({ payment_method: 'card', installments: 4 })
    expect(sent.card_token).toMatch(/^[A-Za-z0-9]{8,64}:visa:\d+$/)
    expect(sent.card).toBeUndefined()
    expect(JSON.stringify(sent)).not.toContain('4509')
    await page.waitForURL(/\/success\?order_id=/, { timeout: 10_000 })
    expect(gateway.tokens).toEqual([sent.card_token])
    const tokenCall = mp.requests.find((r) => r.path.startsWith('/v1/card_tokens'))
    expect(tokenCall?.status).toBe(201)
    expect(refused).toEqual([])
    await screenshot(page, 'checkout-mercadopago-js-paid')
  })

  it("says so in the page when the gateway refuses the card's data", async () => {
    const { page } = browser
    await page.goto(`${svc.url}/checkout/${withCard.slug}`)
    await fillBuyer(page, 'carla.mp.erro@example.com')
    await page.getByLabel('Cartão de crédito').check()
    // Fails the Luhn check: the gateway refuses to tokenize it.
    await page.getByLabel('Número do cartão').fill('4509 9535 6623 3705')
    await page.getByLabel('Nome impresso no cartão').fill('APRO')
    await page.getByLabel('Validade (MM/AA)').fill('11/30')
    await page.getByLabel('CVV').fill('123')
    const before = gateway.tokens.length
    await page.getByRole('button', { name: 'Pagar com cartão' }).click()
    await expect
      .poll(() => page.getByRole('alert').textContent())
      .toBe('Confira os dados do cartão.')
    expect(gateway.tokens).toHaveLength(before)
  })
})
