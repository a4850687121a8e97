// The hosted checkout offers what the product allows (SPEC §4 [decided]): its payment methods,
// its installments with amounts from kit/money, and the card form the gateway needs.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { signupCreator } from '../setup/actors.ts'
import { openBrowser, screenshot, screenshotName } from '../setup/browser.ts'
import { useCardDataEntry } from '../setup/card-data-gateway.ts'
import { createProduct } from '../setup/purchase.ts'
import { engine, startTestService, type TestService } from '../setup/service.ts'
import { contrastFailures, focusedId } from './a11y.ts'
import { fillBuyer } from './checkout-fixtures.ts'

let svc: TestService
let key: string
let browser: Awaited<ReturnType<typeof openBrowser>>
let interestFree: { id: string; slug: string }
let buyerPays: { id: string; slug: string }
let boletoOnly: { id: string; slug: string }

beforeAll(async () => {
  svc = await startTestService()
  key = await (await signupCreator(svc.api)).key(['write:products', 'read:orders'])
  interestFree = await createProduct(svc.api, key, {
    name: 'Curso de Marcenaria',
    plans: [{ name: 'Vitalício', price: 100 }],
    payment_methods: ['pix', 'card', 'boleto'],
    max_installments: 3,
  })
  buyerPays = await createProduct(svc.api, key, {
    name: 'Mentoria de Escrita',
    plans: [{ name: 'Vitalício', price: 100 }],
    payment_methods: ['card', 'pix'],
    max_installments: 6,
    installment_interest: 'buyer',
  })
  boletoOnly = await createProduct(svc.api, key, {
    name: 'Apostila Impressa',
    plans: [{ name: 'Única', price: 59.9 }],
    payment_methods: ['boleto'],
  })
})
afterAll(() => svc?.stop())
beforeEach(async () => {
  browser = await openBrowser()
})
afterEach(({ task }) => browser?.close(`final-${screenshotName(task.name)}`))

const methodsOf = async (page: typeof browser.page) =>
  page
    .getByRole('group', { name: 'Forma de pagamento' })
    .getByRole('radio')
    .evaluateAll((radios) => radios.map((r) => (r as HTMLInputElement).value))
const installmentLabels = (page: typeof browser.page) =>
  page.getByLabel('Parcelas').locator('option').allTextContents()

describe(`checkout page per product (${engine})`, () => {
  it('offers the methods the product allows, and nothing else', async () => {
    const { page } = browser
    await page.goto(`${svc.url}/checkout/${interestFree.slug}`)
    expect(await methodsOf(page)).toEqual(['pix', 'card', 'boleto'])
    await page.goto(`${svc.url}/checkout/${buyerPays.slug}`)
    expect(await methodsOf(page)).toEqual(['pix', 'card'])
    await page.goto(`${svc.url}/checkout/${boletoOnly.slug}`)
    expect(await methodsOf(page)).toEqual(['boleto'])
    expect(await page.getByRole('button', { name: 'Gerar boleto' }).isVisible()).toBe(true)
    expect(await page.locator('#campos-cartao, #installments').count()).toBe(0)
    // No gateway script where the gateway does not tokenize in the page.
    expect(await page.locator('script[src^="http"]').count()).toBe(0)
  })

  it('shows installments up to the maximum, interest-free or with the Price-table amounts', async () => {
    const { page } = browser
    await page.goto(`${svc.url}/checkout/${interestFree.slug}`)
    await page.getByLabel('Cartão de crédito').check()
    expect(await installmentLabels(page)).toEqual([
      '1x de R$ 100,00 à vista',
      '2x de R$ 50,00 sem juros',
      '3x de R$ 33,34 sem juros',
    ])
    await page.goto(`${svc.url}/checkout/${buyerPays.slug}`)
    await page.getByLabel('Cartão de crédito').check()
    const labels = await installmentLabels(page)
    expect(labels).toHaveLength(6)
    expect(labels[0]).toBe('1x de R$ 100,00 à vista')
    // 100.00 at 2.99 % a month: 3 × 35.35.
    expect(labels[2]).toBe('3x de R$ 35,35 (total R$ 106,05)')
    expect(await contrastFailures(page)).toEqual([])
    await screenshot(page, 'checkout-installments-buyer-interest')
  })

  it('pays a one-time product by card in 3x with the sandbox test card', async () => {
    const { page } = browser
    await page.goto(`${svc.url}/checkout/${buyerPays.slug}`)
    await fillBuyer(page, 'carla.parcelas@example.com')
    await page.getByLabel('Cartão de crédito').check()
    await page.getByLabel('Número do cartão').fill('4242 4242 4242 4242')
    await page.getByLabel('Nome impresso no cartão').fill('CARLA C')
    await page.getByLabel('Validade (MM/AA)').fill('12/39')
    await page.getByLabel('CVV').fill('123')
    await page.getByLabel('Parcelas').selectOption('3')
    const created = page.waitForResponse((r) => r.url().endsWith('/api/checkout/create'))
    await page.getByRole('button', { name: 'Pagar com cartão' }).click()
    const response = await created
    expect(response.request().postDataJSON()).toMatchObject({
      payment_method: 'card',
      card_token: 'tok_approved',
      installments: 3,
    })
    await page.waitForURL(/\/success\?order_id=/, { timeout: 10_000 })
    const order = await svc.deps.db
      .selectFrom('orders')
      .select(['amount_cents', 'interest_cents', 'installments', 'status'])
      .where('buyer_email', '=', 'carla.parcelas@example.com')
      .executeTakeFirstOrThrow()
    expect(order).toEqual({
      amount_cents: 10_605,
      interest_cents: 605,
      installments: 3,
      status: 'paid',
    })
  })
})

describe(`checkout page for a gateway that takes card data (${engine})`, () => {
  let gateway: ReturnType<typeof useCardDataEntry>
  beforeAll(() => {
    gateway = useCardDataEntry(svc.deps.gateway, () => svc.deps.clock.now())
  })
  afterAll(() => gateway.restore())

  it("asks for the holder's CEP and address number on numeric keyboards, posts the card and pays", async () => {
    const { page } = browser
    await page.goto(`${svc.url}/checkout/${interestFree.slug}`)
    expect(await page.locator('#postal_code').isHidden()).toBe(true)
    await fillBuyer(page, 'carla.dados@example.com')
    await page.getByLabel('Cartão de crédito').check()
    for (const label of [
      'Número do cartão',
      'Validade (MM/AA)',
      'CVV',
      'CEP do titular',
      'Número do endereço',
    ]) {
      expect(await page.getByLabel(label).getAttribute('inputmode'), label).toBe('numeric')
    }
    await page.getByLabel('Número do cartão').fill('4000 0000 0000 0002')
    await page.getByLabel('Nome impresso no cartão').fill('CARLA C')
    await page.getByLabel('Validade (MM/AA)').fill('12/39')
    await page.getByLabel('CVV').fill('123')
    await page.getByLabel('CEP do titular').fill('01310-100')
    await page.getByLabel('Número do endereço').fill('1578')
    await page.getByLabel('Parcelas').selectOption('2')
    await page.getByRole('button', { name: 'Pagar com cartão' }).click()
    await expect.poll(() => page.getByRole('alert').textContent()).toBe('Cartão recusado')
    expect(await focusedId(page)).toBe('erro-geral')

    await page.getByLabel('Número do cartão').fill('4242 4242 4242 4242')
    const request = page.waitForRequest((r) => r.url().endsWith('/api/checkout/create'))
    await page.getByRole('button', { name: 'Pagar com cartão' }).click()
    const sent = (await request).postDataJSON()
    expect(sent).toMatchObject({
      payment_method: 'card',
      installments: 2,
      card: {
        holder_name: 'CARLA C',
        number: '4242424242424242',
        expiry_month: '12',
        expiry_year: '2039',
        cvv: '123',
      },
      postal_code: '01310100',
      address_number: '1578',
    })
    expect(sent.card_token).toBeUndefined()
    await page.waitForURL(/\/success\?order_id=/, { timeout: 10_000 })
    expect(gateway.charged.at(-1)).toMatchObject({
      installments: 2,
      amountCents: 10_000,
      cardLast4: '4242',
      buyer: { postalCode: '01310100', addressNumber: '1578' },
    })
    await screenshot(page, 'checkout-card-data-paid')
  })
})
