// The checkout page with the Mercado Pago adapter, which tokenizes cards in the browser
// (MercadoPago.js): the script is loaded from the gateway only then and only on a checkout that
// takes cards (its CSP opens just that origin), the card becomes a token at the gateway, only
// the token reaches our server, and the adapter pays with it. The script is the fake's
// stand-in (`${fake.url}/js/v2`); everything runs over real HTTP.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { type FakeMercadoPago, startFakeMercadoPago } from '../fakes/mercadopago.ts'
import { signupCreator } from '../setup/actors.ts'
import { openBrowser, screenshot, screenshotName } from '../setup/browser.ts'
import { mercadoPagoEnv } from '../setup/gateway-env.ts'
import { createProduct } from '../setup/purchase.ts'
import { engine, startTestService, type TestService } from '../setup/service.ts'
import { fillBuyer, fillMercadoPagoCard } from './checkout-fixtures.ts'

let svc: TestService
let mp: FakeMercadoPago
let browser: Awaited<ReturnType<typeof openBrowser>>
let withCard: { id: string; slug: string }
let pixOnly: { id: string; slug: string }

beforeAll(async () => {
  mp = await startFakeMercadoPago({ now: () => (svc ? svc.deps.clock.now() : new Date()) })
  svc = await startTestService({
    ...mercadoPagoEnv(mp),
  })
  const key = await (await signupCreator(svc.api)).key(['write:products'])
  withCard = await createProduct(svc.api, key, {
    name: 'Curso de Fotografia',
    plans: [{ name: 'Vitalício', price: 250 }],
    payment_methods: ['pix', 'card', 'boleto'],
    max_installments: 4,
  })
  pixOnly = await createProduct(svc.api, key, { name: 'E-book de Receitas' })
})
afterAll(async () => {
  await svc?.stop()
  await mp?.close()
})

/** The `POST /v1/payments` requests the adapter made, as the fake received them. */
const paymentCalls = () =>
  mp.requests
    .filter((r) => r.method === 'POST' && r.path === '/v1/payments')
    .map((r) => JSON.parse(r.body))
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
    await fillMercadoPagoCard(page, 'APRO')
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
    const [token, method, issuer] = sent.card_token.split(':')
    expect(paymentCalls().at(-1)).toMatchObject({
      token,
      payment_method_id: method,
      issuer_id: Number(issuer),
      installments: 4,
      transaction_amount: 250,
    })
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
    const before = paymentCalls().length
    await page.getByRole('button', { name: 'Pagar com cartão' }).click()
    await expect
      .poll(() => page.getByRole('alert').textContent())
      .toBe('Confira os dados do cartão.')
    expect(paymentCalls()).toHaveLength(before)
  })
  it('a card the issuer declines is said so in the page, and the order failed', async () => {
    const { page } = browser
    await page.goto(`${svc.url}/checkout/${withCard.slug}`)
    await fillBuyer(page, 'carla.mp.recusada@example.com')
    await page.getByLabel('Cartão de crédito').check()
    await page.getByLabel('Número do cartão').fill('4509 9535 6623 3704')
    // The sandbox's cardholder name for "rejected, other reason".
    await page.getByLabel('Nome impresso no cartão').fill('OTHE')
    await page.getByLabel('Validade (MM/AA)').fill('11/30')
    await page.getByLabel('CVV').fill('123')
    const created = page.waitForResponse((r) => r.url().endsWith('/api/checkout/create'))
    await page.getByRole('button', { name: 'Pagar com cartão' }).click()
    expect((await created).status()).toBe(402)
    await expect.poll(() => page.getByRole('alert').textContent()).toBe('Cartão recusado')
    const order = await svc.deps.db
      .selectFrom('orders')
      .select('status')
      .where('buyer_email', '=', 'carla.mp.recusada@example.com')
      .executeTakeFirstOrThrow()
    expect(order.status).toBe('failed')
  })
  it("asks for the payer's address with a boleto, and links the gateway's printable boleto", async () => {
    const { page } = browser
    await page.goto(`${svc.url}/checkout/${withCard.slug}`)
    expect(await page.locator('#campos-endereco').isHidden()).toBe(true)
    await fillBuyer(page, 'carla.mp.boleto@example.com')
    await page.getByLabel('Boleto', { exact: true }).check()
    expect(await page.locator('#campos-endereco').isVisible()).toBe(true)
    expect(await page.locator('#campos-cartao').isHidden()).toBe(true)
    await page.getByLabel('CEP', { exact: true }).fill('01310-100')
    await page.getByLabel('Número', { exact: true }).fill('1578')
    await page.getByLabel('Rua').fill('Avenida Paulista')
    await page.getByLabel('Bairro').fill('Bela Vista')
    await page.getByLabel('Cidade').fill('São Paulo')
    await page.getByLabel('UF').selectOption('SP')
    const created = page.waitForResponse((r) => r.url().endsWith('/api/checkout/create'))
    await page.getByRole('button', { name: 'Gerar boleto' }).click()
    const response = await created
    expect(response.request().postDataJSON().address).toEqual({
      postal_code: '01310100',
      street: 'Avenida Paulista',
      number: '1578',
      neighborhood: 'Bela Vista',
      city: 'São Paulo',
      state: 'SP',
    })
    const order = await response.json()
    await page.locator('#boleto').waitFor({ state: 'visible' })
    expect(await page.locator('#boleto-linha').inputValue()).toContain(
      order.boleto.digitable_line.slice(0, 5),
    )
    expect(
      await page.getByRole('link', { name: 'Abrir o boleto para imprimir' }).getAttribute('href'),
    ).toBe(order.boleto.url)
    await screenshot(page, 'checkout-mercadopago-boleto')
  })
})
