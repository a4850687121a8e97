// The hosted checkout offers what the product allows (SPEC §4 [decided]): its payment methods,
// its installments with amounts from kit/money, and the card form the gateway needs.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { CHECK_GRACE_MS } from '../../src/modules/payments/checks.ts'
import { signupCreator } from '../setup/actors.ts'
import { openBrowser, screenshot, screenshotName } from '../setup/browser.ts'
import { createProduct, orderByEmail } from '../setup/purchase.ts'
import { engine, startTestService, type TestService } from '../setup/service.ts'
import { contrastFailures } from './a11y.ts'
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

/** The sandbox's test card, which it charges (`tok_approved`). */
async function fillSandboxCard(page: typeof browser.page) {
  await page.getByLabel('Cartão de crédito').check()
  await page.getByLabel('Número do cartão').fill('4242 4242 4242 4242')
  await page.getByLabel('Nome impresso no cartão').fill('CARLA C')
  await page.getByLabel('Validade (MM/AA)').fill('12/39')
  await page.getByLabel('CVV').fill('123')
}

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

  /**
   * Pays by card as `email`, whose sandbox fault (sandbox-faults.ts) keeps the gateway's answer
   * from coming: a 502, the page confirming; then reconciliation's look, past the grace.
   */
  async function payWithoutAnswer(page: typeof browser.page, email: string) {
    await page.goto(`${svc.url}/checkout/${interestFree.slug}`)
    await fillBuyer(page, email)
    await fillSandboxCard(page)
    const created = page.waitForResponse((r) => r.url().endsWith('/api/checkout/create'))
    await page.getByRole('button', { name: 'Pagar com cartão' }).click()
    expect((await created).status()).toBe(502)
    await expect
      .poll(() => page.locator('#aguarde').textContent())
      .toMatch(/^Confirmando o pagamento com a operadora/)
    expect(await page.locator('#pagar').isDisabled()).toBe(true)
    expect(await orderOf(email)).toMatchObject({ status: 'pending' })
    await svc.deps.clock.advance(CHECK_GRACE_MS + 1_000)
    await svc.workers!.runOnce('payments.reconcile')
  }
  const orderOf = (email: string) => orderByEmail(svc, email)

  it('a card whose charge answer never came: the page waits for the order, not a second payment', async () => {
    const { page } = browser
    // Charged, the answer lost: reconciliation finds the charge and pays the order.
    const email = 'carla.incerta@instavel.example'
    const order = () => orderOf(email)
    await payWithoutAnswer(page, email)
    await page.waitForURL(/\/success\?order_id=/, { timeout: 15_000 })
    const { id } = await order()
    expect(page.url()).toContain(id)
    expect(await order()).toMatchObject({ status: 'paid' })
    const charges = await svc.deps.db
      .selectFrom('sandbox_charges')
      .select('status')
      .where('reference', '=', id)
      .execute()
    expect(charges).toEqual([{ status: 'paid' }])
  })

  it('a charge that never reached the gateway: once reconciliation says so, the buyer may pay again', async () => {
    const { page } = browser
    const email = 'carla.sem.rede@inalcancavel.example'
    await payWithoutAnswer(page, email)
    await expect
      .poll(() => page.locator('#erro-geral').textContent(), { timeout: 15_000 })
      .toBe('O pagamento não foi concluído e nada foi cobrado. Confira os dados e tente de novo.')
    expect(await page.locator('#pagar').isDisabled()).toBe(false)
    expect(await page.locator('#aguarde').textContent()).toBe('')
    expect(await orderOf(email)).toMatchObject({ status: 'failed' })
  })

  it('pays a one-time product by card in 3x with the sandbox test card', async () => {
    const { page } = browser
    await page.goto(`${svc.url}/checkout/${buyerPays.slug}`)
    await fillBuyer(page, 'carla.parcelas@example.com')
    await fillSandboxCard(page)
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
