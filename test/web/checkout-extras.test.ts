// The checkout's extras (issue 12, item 6) in Chromium: seller name, product image that keeps
// its place while loading, the guarantee, the coupon field (price changes; "Cupom inválido"),
// terms and privacy links, per-field card errors, masks and numeric keyboards, the boleto's
// copy button and PDF link; axe at 360 and 1280 px in the PIX, card and boleto states and on
// /termos and /privacidade.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { signupCreator } from '../setup/actors.ts'
import { openBrowser, screenshot } from '../setup/browser.ts'
import { createProduct, VALID_CPF } from '../setup/purchase.ts'
import { engine, startTestService, type TestService } from '../setup/service.ts'
import { AXE_WIDTHS, seriousAxeViolations } from './axe.ts'

const IMAGE = 'https://imagens.example.com/capas/ceramica.png'
// A 1×1 PNG, what the image host answers once the test lets it.
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
)

let svc: TestService
let slug: string
beforeAll(async () => {
  svc = await startTestService()
  const creator = await signupCreator(svc.api, 'Ana Ceramista')
  const key = await creator.key(['write:products'])
  const product = await createProduct(svc.api, key, {
    name: 'Oficina de Esmaltes',
    billing: 'recurring',
    image_url: IMAGE,
    guarantee_days: 15,
    plans: [{ name: 'Mensal', price: 50 }],
  })
  slug = product.slug
  const coupon = await svc.api('POST', `/api/v1/products/${product.id}/coupons`, {
    key,
    body: { code: 'DEZ', percent_off: 10 },
  })
  expect(coupon.status).toBe(201)
})
afterAll(() => svc?.stop())

async function expectNoSeriousAxe(
  page: Awaited<ReturnType<typeof openBrowser>>['page'],
  what: string,
) {
  for (const viewport of AXE_WIDTHS) {
    await page.setViewportSize(viewport)
    expect(await seriousAxeViolations(page), `${what} at ${viewport.width} px`).toEqual([])
  }
  await page.setViewportSize(AXE_WIDTHS[0])
}

async function fillBuyer(page: Awaited<ReturnType<typeof openBrowser>>['page'], email: string) {
  await page.getByLabel('Nome completo').fill('Carla Compradora')
  await page.getByLabel('E-mail').fill(email)
  await page.getByLabel('CPF ou CNPJ').fill(VALID_CPF)
  await page.getByLabel('Celular').fill('(21) 99876-5432')
}

describe(`checkout extras (${engine})`, () => {
  it('shows seller, image (its place kept while it loads), guarantee and the legal links; the coupon field changes the price', async () => {
    const browser = await openBrowser()
    try {
      const { page } = browser
      let release: () => void = () => {}
      const held = new Promise<void>((resolve) => {
        release = resolve
      })
      await page.route(`${new URL(IMAGE).origin}/**`, async (route) => {
        await held
        await route.fulfill({ contentType: 'image/png', body: PNG })
      })
      await page.goto(`${svc.url}/checkout/${slug}`, { waitUntil: 'domcontentloaded' })
      const image = page.getByRole('img', { name: 'Oficina de Esmaltes' })
      expect(await image.getAttribute('src')).toBe(IMAGE)
      expect(await image.getAttribute('width')).toBe('640')
      expect(await image.getAttribute('height')).toBe('360')
      const titleTop = () => page.locator('h1').evaluate((h) => h.getBoundingClientRect().top)
      const before = await titleTop()
      release()
      await expect
        .poll(() => image.evaluate((img) => (img as HTMLImageElement).naturalWidth))
        .toBe(1)
      expect(await titleTop()).toBe(before)

      expect(await page.getByText('Vendido por Ana Ceramista').isVisible()).toBe(true)
      expect(await page.getByText('Garantia de 15 dias').isVisible()).toBe(true)
      expect(await page.getByRole('link', { name: 'Termos de uso' }).getAttribute('href')).toBe(
        '/termos',
      )
      expect(
        await page.getByRole('link', { name: 'Política de privacidade' }).getAttribute('href'),
      ).toBe('/privacidade')

      const status = page.getByRole('status').and(page.locator('#cupom-situacao'))
      await page.getByLabel('Cupom de desconto').fill('dez')
      await page.getByRole('button', { name: 'Aplicar' }).click()
      await expect.poll(() => status.textContent()).toBe('Cupom DEZ aplicado')
      expect(await page.locator('#preco').textContent()).toBe('R$ 45,00/mês')
      expect(await page.locator('#preco-original').textContent()).toBe('R$ 50,00')
      await screenshot(page, 'checkout-extras-coupon')

      await page.getByLabel('Cupom de desconto').fill('NADA')
      await page.getByRole('button', { name: 'Aplicar' }).click()
      await expect.poll(() => status.textContent()).toBe('Cupom inválido')
      expect(await page.getByLabel('Cupom de desconto').getAttribute('aria-invalid')).toBe('true')
      expect(await page.locator('#preco').textContent()).toBe('R$ 50,00/mês')
      expect(await page.locator('#preco-original').textContent()).toBe('')

      // Enter in the coupon field applies it, never submits the purchase.
      await page.getByLabel('Cupom de desconto').fill('DEZ')
      await page.getByLabel('Cupom de desconto').press('Enter')
      await expect.poll(() => page.locator('#preco').textContent()).toBe('R$ 45,00/mês')
      expect(await page.locator('#checkout-form').isVisible()).toBe(true)

      // The checkout session keeps the applied coupon (a recovery link brings it back).
      const patched = page.waitForRequest(
        (r) => r.method() === 'PATCH' && r.postDataJSON()?.coupon_code === 'DEZ',
      )
      await fillBuyer(page, 'carla.extras@example.com')
      await patched
      const created = page.waitForResponse((r) => r.url().endsWith('/api/checkout/create'))
      await page.getByRole('button', { name: 'Gerar PIX' }).click()
      const response = await created
      expect(response.request().postDataJSON().coupon_code).toBe('DEZ')
      expect((await response.json()).amount).toBe(45)
      await page.locator('#pix').waitFor({ state: 'visible' })
      await expectNoSeriousAxe(page, 'PIX')
      await screenshot(page, 'checkout-extras-pix')
    } finally {
      await browser.close()
    }
  })

  it('masks what the buyer types, with numeric keyboards, and says each card error beside its field', async () => {
    const browser = await openBrowser()
    try {
      const { page } = browser
      await page.goto(`${svc.url}/checkout/${slug}`)
      await page.getByLabel('CPF ou CNPJ').pressSequentially('52998224725')
      expect(await page.getByLabel('CPF ou CNPJ').inputValue()).toBe('529.982.247-25')
      await page.getByLabel('Celular').pressSequentially('21998765432')
      expect(await page.getByLabel('Celular').inputValue()).toBe('(21) 99876-5432')
      await page.getByLabel('Cartão de crédito').check()
      await page.getByLabel('Número do cartão').pressSequentially('4242424242424242')
      expect(await page.getByLabel('Número do cartão').inputValue()).toBe('4242 4242 4242 4242')
      await page.getByLabel('Validade (MM/AA)').pressSequentially('1230')
      expect(await page.getByLabel('Validade (MM/AA)').inputValue()).toBe('12/30')
      for (const [label, autocomplete] of [
        ['CPF ou CNPJ', 'off'],
        ['Celular', 'tel-national'],
        ['Número do cartão', 'cc-number'],
        ['Validade (MM/AA)', 'cc-exp'],
        ['CVV', 'cc-csc'],
      ] as const) {
        const field = page.getByLabel(label)
        expect(await field.getAttribute('inputmode'), label).toBe('numeric')
        expect(await field.getAttribute('autocomplete'), label).toBe(autocomplete)
      }

      await page.getByLabel('Nome completo').fill('Carla Compradora')
      await page.getByLabel('E-mail').fill('carla.cartao@example.com')
      await page.getByLabel('Número do cartão').fill('4242 4242')
      await page.getByLabel('Validade (MM/AA)').fill('13/30')
      await page.getByLabel('CVV').fill('1')
      let created = false
      page.on('request', (r) => {
        if (r.url().endsWith('/api/checkout/create')) created = true
      })
      await page.getByRole('button', { name: 'Pagar com cartão' }).click()
      const expected = {
        card_number: 'Informe os 13 a 19 dígitos do cartão.',
        card_holder: 'Informe o nome impresso no cartão.',
        card_expiry: 'Informe a validade no formato MM/AA.',
        card_cvv: 'Informe o CVV: 3 ou 4 dígitos no verso.',
      }
      for (const [name, message] of Object.entries(expected)) {
        const input = page.locator(`#${name}`)
        expect(await input.getAttribute('aria-invalid'), name).toBe('true')
        const line = page.locator(`#${await input.getAttribute('aria-describedby')}`)
        expect(await line.textContent(), name).toBe(message)
        expect(await line.getAttribute('role'), name).toBe('alert')
        expect(await line.isVisible(), name).toBe(true)
      }
      expect(await page.evaluate(() => document.activeElement?.id)).toBe('card_number')
      expect(created).toBe(false)
      await expectNoSeriousAxe(page, 'card errors')
      await screenshot(page, 'checkout-extras-card-errors')

      // Fixed fields lose their errors on the next try.
      await page.getByLabel('Número do cartão').fill('4242 4242 4242 4242')
      await page.getByLabel('Nome impresso no cartão').fill('CARLA C')
      await page.getByLabel('Validade (MM/AA)').fill('12/10')
      await page.getByLabel('CVV').fill('123')
      await page.getByRole('button', { name: 'Pagar com cartão' }).click()
      await expect
        .poll(() => page.locator('#erro-card_expiry').textContent())
        .toBe('Este cartão está vencido.')
      expect(await page.locator('#erro-card_number').isHidden()).toBe(true)
      expect(await page.locator('#card_cvv').getAttribute('aria-invalid')).toBe('false')
      expect(created).toBe(false)
    } finally {
      await browser.close()
    }
  })

  it('gives the boleto a copy button and the gateway PDF link', async () => {
    const browser = await openBrowser()
    try {
      const { page, context } = browser
      await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: svc.url })
      await page.goto(`${svc.url}/checkout/${slug}`)
      await fillBuyer(page, 'carla.boleto@example.com')
      await page.getByLabel('Boleto', { exact: true }).check()
      const created = page.waitForResponse((r) => r.url().endsWith('/api/checkout/create'))
      await page.getByRole('button', { name: 'Gerar boleto' }).click()
      const order = await (await created).json()
      await page.locator('#boleto').waitFor({ state: 'visible' })
      expect(order.boleto.pdf_url).toBe(`${svc.url}/sandbox/boletos/${order.charge_id}.pdf`)

      await page.getByRole('button', { name: 'Copiar linha digitável' }).click()
      await expect
        .poll(() => page.getByRole('status').textContent())
        .toBe('Linha digitável copiada. Pague no app do seu banco.')
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(
        order.boleto.digitable_line,
      )
      const link = page.getByRole('link', { name: 'Abrir o boleto para imprimir (PDF)' })
      expect(await link.getAttribute('href')).toBe(order.boleto.pdf_url)
      const pdf = await fetch(order.boleto.pdf_url)
      expect(pdf.status).toBe(200)
      expect(pdf.headers.get('content-type')).toBe('application/pdf')
      const text = Buffer.from(await pdf.arrayBuffer()).toString('latin1')
      expect(text.startsWith('%PDF-1.4')).toBe(true)
      expect(text).toContain(order.boleto.digitable_line)
      expect((await fetch(`${svc.url}/sandbox/boletos/sbx_${'0'.repeat(32)}.pdf`)).status).toBe(404)
      await expectNoSeriousAxe(page, 'boleto')
      await screenshot(page, 'checkout-extras-boleto')
    } finally {
      await browser.close()
    }
  })

  it('/termos and /privacidade say who answers for what, in pt-BR, with no serious axe violation', async () => {
    const browser = await openBrowser()
    try {
      const { page } = browser
      await page.goto(`${svc.url}/termos`)
      expect(await page.locator('h1').textContent()).toBe('Termos de uso')
      const terms = await page.locator('main').textContent()
      expect(terms).toContain('O produtor é o vendedor')
      expect(terms).toContain('A Vitrine é a plataforma')
      await expectNoSeriousAxe(page, '/termos')
      await page.getByRole('link', { name: 'Política de privacidade' }).click()
      await page.waitForURL(/\/privacidade$/)
      expect(await page.locator('h1').textContent()).toBe('Política de privacidade')
      expect(await page.locator('html').getAttribute('lang')).toBe('pt-BR')
      await expectNoSeriousAxe(page, '/privacidade')
      await screenshot(page, 'legal-privacidade')
    } finally {
      await browser.close()
    }
  })
})
