// The checkout page with the Asaas adapter, which takes card data server-side: the page asks for
// the holder's CEP and address number too (numeric keyboards), posts the card once, and the
// adapter charges it at the Asaas fake, in installments with the buyer's interest. Real HTTP
// throughout: page → service → fake, and the fake's webhooks back.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { DECLINED_CARDS, type FakeAsaas, startFakeAsaas } from '../fakes/asaas.ts'
import { signupCreator } from '../setup/actors.ts'
import { openBrowser, screenshot, screenshotName } from '../setup/browser.ts'
import { asaasEnv } from '../setup/gateway-env.ts'
import { checkout, createProduct } from '../setup/purchase.ts'
import { engine, startTestService, type TestService } from '../setup/service.ts'
import { contrastFailures, focusedId } from './a11y.ts'
import { fillBuyer } from './checkout-fixtures.ts'

const TOKEN = 'asaas-webhook-token-page'
/** Any generated card is approved by Asaas' sandbox and the fake. */
const APPROVED_CARD = '4111 1111 1111 1111'

let fake: FakeAsaas
let svc: TestService
let browser: Awaited<ReturnType<typeof openBrowser>>
let product: { id: string; slug: string }

beforeAll(async () => {
  fake = await startFakeAsaas({ webhook: { retryDelayMs: 20 } })
  svc = await startTestService({
    PAYMENT_GATEWAY: 'asaas',
    ...asaasEnv(fake, TOKEN),
  })
  fake.webhooks.setTarget(`${svc.url}/api/payments/callback/asaas`, TOKEN)
  const key = await (await signupCreator(svc.api)).key(['write:products'])
  product = await createProduct(svc.api, key, {
    name: 'Curso de Violão',
    plans: [{ name: 'Vitalício', price: 100 }],
    payment_methods: ['pix', 'card', 'boleto'],
    max_installments: 3,
    installment_interest: 'buyer',
  })
})
afterAll(async () => {
  await svc?.stop()
  await fake?.close()
})
beforeEach(async () => {
  browser = await openBrowser()
})
afterEach(({ task }) => browser?.close(`final-${screenshotName(task.name)}`))

async function fillCard(page: typeof browser.page, number: string) {
  await page.getByLabel('Cartão de crédito').check()
  await page.getByLabel('Número do cartão').fill(number)
  await page.getByLabel('Nome impresso no cartão').fill('CARLA C')
  await page.getByLabel('Validade (MM/AA)').fill('12/35')
  await page.getByLabel('CVV').fill('123')
  await page.getByLabel('CEP do titular').fill('01310-100')
  await page.getByLabel('Número do endereço').fill('1578')
}

describe(`checkout page with Asaas (${engine})`, () => {
  it('a declined card is said so; an approved one in 3x pays price + interest in 3 Asaas installments', async () => {
    const { page } = browser
    await page.goto(`${svc.url}/checkout/${product.slug}`)
    // No gateway script: the card goes to our server, then to Asaas.
    expect(await page.locator('script[src^="http"]').count()).toBe(0)
    expect(await page.locator('#postal_code').isHidden()).toBe(true)
    await fillBuyer(page, 'carla.asaas@example.com')
    await fillCard(page, DECLINED_CARDS[1]!)
    for (const label of [
      'Número do cartão',
      'Validade (MM/AA)',
      'CVV',
      'CEP do titular',
      'Número do endereço',
    ]) {
      expect(await page.getByLabel(label).getAttribute('inputmode'), label).toBe('numeric')
    }
    await page.getByLabel('Parcelas').selectOption('3')
    expect(await page.getByLabel('Parcelas').locator('option:checked').textContent()).toBe(
      '3x de R$ 35,35 (total R$ 106,05)',
    )
    await page.getByRole('button', { name: 'Pagar com cartão' }).click()
    await expect.poll(() => page.getByRole('alert').textContent()).toBe('Cartão recusado')
    expect(await focusedId(page)).toBe('erro-geral')
    expect(await contrastFailures(page)).toEqual([])
    await screenshot(page, 'checkout-asaas-card-declined')

    await page.getByLabel('Número do cartão').fill(APPROVED_CARD)
    const request = page.waitForRequest((r) => r.url().endsWith('/api/checkout/create'))
    await page.getByRole('button', { name: 'Pagar com cartão' }).click()
    const sent = (await request).postDataJSON()
    expect(sent).toMatchObject({
      payment_method: 'card',
      installments: 3,
      card: {
        holder_name: 'CARLA C',
        number: '4111111111111111',
        expiry_month: '12',
        expiry_year: '2035',
      },
      postal_code: '01310100',
      address_number: '1578',
    })
    await page.waitForURL(/\/success\?order_id=/, { timeout: 10_000 })
    await screenshot(page, 'checkout-asaas-card-paid')

    const order = await svc.deps.db
      .selectFrom('orders')
      .select(['id', 'amount_cents', 'interest_cents', 'installments'])
      .where('buyer_email', '=', 'carla.asaas@example.com')
      .where('status', '=', 'paid')
      .executeTakeFirstOrThrow()
    expect(order).toMatchObject({ amount_cents: 10_605, interest_cents: 605, installments: 3 })
    const payments = fake.payments().filter((p) => p.externalReference === order.id)
    expect(payments.map((p) => p.value)).toEqual([35.35, 35.35, 35.35])
    // The card is Asaas' to keep, not ours: no table holds its number.
    const rows = JSON.stringify(await svc.deps.db.selectFrom('charges').selectAll().execute())
    expect(rows).not.toContain('4111111111111111')
  })
  it("gives a boleto's pdf_url as Asaas' bankSlipUrl, which serves the PDF", async () => {
    const created = await checkout(svc.api, product.id, { payment_method: 'boleto' })
    expect(created.status).toBe(201)
    const { pdf_url, url } = created.body.boleto
    expect(pdf_url).toMatch(/\/b\/pdf\/\w+$/)
    expect(new URL(pdf_url).origin).toBe(new URL(fake.url).origin)
    expect(url).toBe(pdf_url)
    const pdf = await fetch(pdf_url)
    expect(pdf.status).toBe(200)
    expect(pdf.headers.get('content-type')).toBe('application/pdf')
    expect(Buffer.from(await pdf.arrayBuffer()).toString('latin1')).toMatch(/^%PDF-1\.4/)
  })
})
