// The hosted checkout at 360×740, used with a keyboard and read by assistive technology.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { signupCreator } from '../setup/actors.ts'
import { openBrowser, screenshot, screenshotName, type TestBrowser } from '../setup/browser.ts'
import { VALID_CPF } from '../setup/purchase.ts'
import { engine, startTestService, type TestService } from '../setup/service.ts'
import {
  contrastFailures,
  focusedId,
  focusRingShown,
  scrollsSideways,
  unnamedControls,
} from './a11y.ts'
import { type CheckoutProduct, checkoutProducts, fillBuyer } from './checkout-fixtures.ts'

let svc: TestService
let oneTime: CheckoutProduct
let recurring: CheckoutProduct
let browser: TestBrowser | undefined

beforeAll(async () => {
  svc = await startTestService()
  const key = await (await signupCreator(svc.api)).key(['write:products'])
  ;({ oneTime, recurring } = await checkoutProducts(svc.api, key))
})
afterAll(() => svc?.stop())
afterEach(({ task }) => browser?.close(`final-${screenshotName(task.name)}`))

async function open(slug: string) {
  browser = await openBrowser({ width: 360, height: 740 })
  await browser.page.goto(`${svc.url}/checkout/${slug}`)
  return browser.page
}

/** Everything the page shows at this moment fits 360 px, is named and has enough contrast. */
async function expectAccessible(page: TestBrowser['page']) {
  expect(await scrollsSideways(page)).toBe(false)
  expect(await unnamedControls(page)).toEqual([])
  expect(await contrastFailures(page)).toEqual([])
}

describe(`hosted checkout accessibility at 360×740 (${engine})`, () => {
  it('names every control, fits 360 px, keeps contrast, and is pt-BR', async () => {
    const page = await open(recurring.slug)
    expect(await page.locator('html').getAttribute('lang')).toBe('pt-BR')
    await expectAccessible(page)
    const plans = page.getByRole('group', { name: 'Plano' })
    expect(await plans.getByRole('radio', { name: 'Mensal — R$ 39,90/mês' }).isChecked()).toBe(true)
    expect(await plans.getByRole('radio', { name: 'Anual — R$ 399,00/ano' }).isVisible()).toBe(true)
    for (const name of ['Nome completo', 'E-mail', 'CPF ou CNPJ'])
      expect(await page.getByRole('textbox', { name }).isVisible(), name).toBe(true)
    expect(await page.getByRole('textbox', { name: 'Celular' }).getAttribute('type')).toBe('tel')
    const methods = page.getByRole('group', { name: 'Forma de pagamento' })
    for (const name of ['PIX', 'Cartão de crédito', 'Boleto'])
      expect(await methods.getByRole('radio', { name, exact: true }).isVisible(), name).toBe(true)
    expect(await page.getByRole('button', { name: 'Gerar PIX' }).isVisible()).toBe(true)

    await methods.getByRole('radio', { name: 'Cartão de crédito' }).check()
    for (const name of ['Número do cartão', 'Nome impresso no cartão', 'Validade (MM/AA)', 'CVV'])
      expect(await page.getByRole('textbox', { name }).isVisible(), name).toBe(true)
    expect(await page.getByRole('combobox', { name: 'Parcelas' }).isVisible()).toBe(true)
    await expectAccessible(page)
    await screenshot(page, 'a11y-360-card-form')
  })

  it('is operable by keyboard alone: plan, fields, payment method and submit, with a visible focus ring', async () => {
    const page = await open(recurring.slug)
    await page.keyboard.press('Tab')
    expect(await page.evaluate(() => (document.activeElement as HTMLInputElement).name)).toBe(
      'plan',
    )
    expect(await focusRingShown(page)).toBe(true)
    await page.keyboard.press('ArrowDown')
    expect(await page.getByRole('radio', { name: /^Anual/ }).isChecked()).toBe(true)
    expect(await page.locator('#preco').textContent()).toBe('R$ 399,00/ano')

    for (const [id, text] of [
      ['name', 'Carla Teclado'],
      ['email', 'carla.teclado@example.com'],
      ['cpf', VALID_CPF],
      ['phone', '(21) 99876-5432'],
    ] as const) {
      await page.keyboard.press('Tab')
      expect(await focusedId(page)).toBe(id)
      expect(await focusRingShown(page)).toBe(true)
      await page.keyboard.type(text)
    }
    await page.keyboard.press('Tab')
    expect(
      await page
        .getByRole('radio', { name: 'PIX' })
        .evaluate((el) => el === document.activeElement),
    ).toBe(true)
    await page.keyboard.press('ArrowDown')
    await page.keyboard.press('ArrowDown')
    expect(await page.getByRole('radio', { name: 'Boleto' }).isChecked()).toBe(true)
    // The coupon field and its button sit between the payment method and the payment.
    await page.keyboard.press('Tab')
    expect(await focusedId(page)).toBe('cupom')
    await page.keyboard.press('Tab')
    expect(await focusedId(page)).toBe('cupom-aplicar')
    await page.keyboard.press('Tab')
    expect(await focusedId(page)).toBe('pagar')
    expect(await page.locator('#pagar').textContent()).toBe('Gerar boleto')
    expect(await focusRingShown(page)).toBe(true)

    await page.keyboard.press('Enter')
    await page.locator('#boleto').waitFor({ state: 'visible' })
    // The result takes the focus, so a screen reader reads it next.
    expect(await focusedId(page)).toBe('boleto')
    await expectAccessible(page)
    await screenshot(page, 'a11y-360-boleto')
  })

  it('announces field errors and moves the focus to the first one', async () => {
    const page = await open(oneTime.slug)
    await page.getByLabel('E-mail').fill('carla@example.com')
    await page.getByRole('button', { name: 'Gerar PIX' }).click()
    expect(await focusedId(page)).toBe('name')
    const name = page.getByRole('textbox', { name: 'Nome completo' })
    expect(await name.getAttribute('aria-invalid')).toBe('true')
    const described = page.locator(`#${await name.getAttribute('aria-describedby')}`)
    expect(await described.textContent()).toBe('Informe seu nome completo.')
    expect(await described.getAttribute('aria-live')).toBe('polite')
    expect(await page.getByLabel('E-mail').getAttribute('aria-invalid')).toBe('false')
    expect(await page.getByLabel('CPF ou CNPJ').getAttribute('aria-invalid')).toBe('true')
    await expectAccessible(page)
  })

  it('moves the focus to the PIX to pay, which fits 360 px, with a silent timer and a status line', async () => {
    const page = await open(oneTime.slug)
    await fillBuyer(page, 'carla.foco@example.com')
    await page.getByRole('button', { name: 'Gerar PIX' }).click()
    await page.locator('#pix').waitFor({ state: 'visible' })
    expect(await focusedId(page)).toBe('pix')
    // role=timer is not announced each second; the status line is, when it changes.
    expect(await page.getByRole('timer').textContent()).toMatch(/^(29|30):\d\d$/)
    expect(await page.getByRole('status').textContent()).toBe('Aguardando pagamento…')
    expect(await page.getByRole('img', { name: 'QR code PIX para pagamento' }).isVisible()).toBe(
      true,
    )
    await expectAccessible(page)
    await screenshot(page, 'a11y-360-pix')
  })
})
