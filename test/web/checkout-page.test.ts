import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { signupCreator } from '../setup/actors.ts'
import { openBrowser, screenshot, screenshotName } from '../setup/browser.ts'
import { createProduct, VALID_CPF } from '../setup/purchase.ts'
import { engine, eventually, startTestService, type TestService } from '../setup/service.ts'
import { contrastFailures, focusedId } from './a11y.ts'
import { type CheckoutProduct, checkoutProducts, fillBuyer } from './checkout-fixtures.ts'

let svc: TestService
let key: string
let oneTime: CheckoutProduct
let recurring: CheckoutProduct
let browser: Awaited<ReturnType<typeof openBrowser>>

beforeAll(async () => {
  svc = await startTestService()
  key = await (await signupCreator(svc.api)).key(['write:products', 'read:orders'])
  ;({ oneTime, recurring } = await checkoutProducts(svc.api, key))
})
afterAll(() => svc?.stop())
beforeEach(async () => {
  browser = await openBrowser()
})
// Every test leaves a screenshot of where it ended, passed or failed.
afterEach(({ task }) => browser?.close(`final-${screenshotName(task.name)}`))

describe(`hosted checkout in Chromium (${engine})`, () => {
  it('buys with PIX: QR and copy-paste shown, paid through the sandbox, redirected to success', async () => {
    const { page } = browser
    await page.goto(`${svc.url}/checkout/${oneTime.slug}`)
    await expect.poll(() => page.locator('h1').textContent()).toBe('Curso de Cerâmica')
    expect(await page.locator('#preco').textContent()).toBe('R$ 197,00')
    await fillBuyer(browser.page, 'carla.pix@example.com')
    const created = page.waitForResponse((r) => r.url().endsWith('/api/checkout/create'))
    await page.getByRole('button', { name: 'Gerar PIX' }).click()
    const order = await (await created).json()
    await page.locator('#pix').waitFor({ state: 'visible' })
    expect(await page.locator('#checkout-form').isHidden()).toBe(true)
    expect(await page.locator('#boleto').isHidden()).toBe(true)
    expect(await page.locator('#pix-codigo').inputValue()).toBe(order.pix.copy_paste)
    expect(await page.locator('#pix-qr').getAttribute('src')).toMatch(/^data:image\/png;base64,/)
    expect(await page.locator('#pix-tempo').textContent()).toMatch(/^(29|30):\d\d$/)
    await browser.context.grantPermissions(['clipboard-read', 'clipboard-write'], {
      origin: svc.url,
    })
    await page.getByRole('button', { name: 'Copiar código' }).click()
    await expect.poll(() => page.locator('#pix-copiar').textContent()).toBe('Código copiado!')
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(order.pix.copy_paste)
    await screenshot(page, 'checkout-pix-qr')

    const paid = await svc.api('POST', `/sandbox/charges/${order.charge_id}/pay`)
    expect(paid.body.callback_status).toBe(200)
    await page.waitForURL(/\/success\?order_id=/, { timeout: 10_000 })
    await expect.poll(() => page.locator('h1').textContent()).toBe('Pagamento confirmado!')
    expect(await page.getByRole('link', { name: 'Ir para a área de membros' }).isVisible()).toBe(
      true,
    )
    expect(await contrastFailures(page)).toEqual([])
    await screenshot(page, 'checkout-pix-success')
  })

  it("redirects a paid PIX to the product's success_url when it has one", async () => {
    const withSuccessUrl = await createProduct(svc.api, key, {
      name: 'Oficina de Encadernação',
      success_url: `${svc.url}/health?obrigado=1`,
    })
    const { page } = browser
    await page.goto(`${svc.url}/checkout/${withSuccessUrl.slug}`)
    await fillBuyer(page, 'carla.obrigado@example.com')
    const created = page.waitForResponse((r) => r.url().endsWith('/api/checkout/create'))
    await page.getByRole('button', { name: 'Gerar PIX' }).click()
    const order = await (await created).json()
    await page.locator('#pix').waitFor({ state: 'visible' })
    await svc.api('POST', `/sandbox/charges/${order.charge_id}/pay`)
    await page.waitForURL(`${svc.url}/health?obrigado=1`, { timeout: 10_000 })
  })

  it('buys a subscription plan with a card tokenized in the page; a declined card shows the error', async () => {
    const { page } = browser
    await page.goto(`${svc.url}/checkout/${recurring.slug}`)
    expect(await page.locator('#campos-cartao').isHidden()).toBe(true)
    await page.getByLabel('Anual — R$ 399,00/ano').check()
    expect(await page.locator('#preco').textContent()).toBe('R$ 399,00/ano')
    await fillBuyer(browser.page, 'carla.cartao@example.com')
    await page.getByLabel('Cartão de crédito').check()
    expect(await page.locator('#campos-cartao').isVisible()).toBe(true)
    await page.getByLabel('Número do cartão').fill('4000 0000 0000 0002')
    await page.getByLabel('Nome impresso no cartão').fill('CARLA C')
    await page.getByLabel('Validade (MM/AA)').fill('12/39')
    await page.getByLabel('CVV').fill('123')
    await page.getByLabel('Parcelas').selectOption('3')
    await page.getByRole('button', { name: 'Pagar com cartão' }).click()
    await expect.poll(() => page.getByRole('alert').textContent()).toBe('Cartão recusado')
    expect(await focusedId(page)).toBe('erro-geral')
    expect(await contrastFailures(page)).toEqual([])
    await screenshot(page, 'checkout-card-declined')

    await page.getByLabel('Número do cartão').fill('4242 4242 4242 4242')
    const request = page.waitForRequest((r) => r.url().endsWith('/api/checkout/create'))
    await page.getByRole('button', { name: 'Pagar com cartão' }).click()
    const sent = (await request).postDataJSON()
    expect(sent).toMatchObject({
      payment_method: 'card',
      card_token: 'tok_approved',
      installments: 3,
    })
    expect(JSON.stringify(sent)).not.toContain('4242 4242')
    await page.waitForURL(/\/success\?order_id=/, { timeout: 10_000 })
    await expect.poll(() => page.locator('h1').textContent()).toBe('Pagamento confirmado!')
    await screenshot(page, 'checkout-card-paid')
  })

  it('applies ?coupon= to every plan, the installments and the order; a bad coupon is said so', async () => {
    const coupon = await svc.api('POST', `/api/v1/products/${recurring.id}/coupons`, {
      key,
      body: { code: 'LEITOR10', percent_off: 10 },
    })
    expect(coupon.status).toBe(201)
    const { page } = browser
    await page.goto(`${svc.url}/checkout/${recurring.slug}?coupon=leitor10`)
    expect(await page.locator('#preco').textContent()).toBe('R$ 35,91/mês')
    expect(await page.locator('#preco-original').textContent()).toBe('R$ 39,90')
    expect(await page.getByText('Cupom LEITOR10 aplicado').isVisible()).toBe(true)
    await page.getByLabel('Anual — R$ 359,10/ano').check()
    expect(await page.locator('#preco').textContent()).toBe('R$ 359,10/ano')
    expect(await page.locator('#preco-original').textContent()).toBe('R$ 399,00')
    await page.getByLabel('Cartão de crédito').check()
    expect(await page.getByLabel('Parcelas').locator('option').first().textContent()).toBe(
      '1x de R$ 359,10 à vista',
    )
    await page.getByLabel('PIX', { exact: true }).check()
    await fillBuyer(page, 'carla.cupom@example.com')
    const created = page.waitForResponse((r) => r.url().endsWith('/api/checkout/create'))
    await page.getByRole('button', { name: 'Gerar PIX' }).click()
    const response = await created
    expect(response.request().postDataJSON().coupon_code).toBe('LEITOR10')
    expect((await response.json()).amount).toBe(359.1)
    await screenshot(page, 'checkout-coupon-pix')

    await page.goto(`${svc.url}/checkout/${recurring.slug}?coupon=NAOEXISTE`)
    expect(await page.getByRole('status').first().textContent()).toBe('Cupom inválido: NAOEXISTE')
    expect(await page.locator('#preco').textContent()).toBe('R$ 39,90/mês')
  })

  it('offers PIX only, without a card form, for a one_time product', async () => {
    const { page } = browser
    await page.goto(`${svc.url}/checkout/${oneTime.slug}`)
    const methods = page.getByRole('group', { name: 'Forma de pagamento' }).getByRole('radio')
    expect(await methods.count()).toBe(1)
    expect(await methods.first().getAttribute('value')).toBe('pix')
    expect(await page.locator('#campos-cartao, #card_number, #installments').count()).toBe(0)
  })

  it("installments 1–12 follow the chosen plan's price", async () => {
    const { page } = browser
    await page.goto(`${svc.url}/checkout/${recurring.slug}?plan=${recurring.plans[1]!.id}`)
    await page.getByLabel('Cartão de crédito').check()
    const options = () => page.getByLabel('Parcelas').locator('option').allTextContents()
    const yearly = await options()
    expect(yearly).toHaveLength(12)
    expect(yearly[0]).toBe('1x de R$ 399,00 à vista')
    expect(yearly[11]).toBe('12x de R$ 33,25 sem juros')
    await page.getByLabel('Parcelas').selectOption('3')
    await page.getByLabel('Mensal — R$ 39,90/mês').check()
    const monthly = await options()
    expect(monthly[0]).toBe('1x de R$ 39,90 à vista')
    expect(monthly[1]).toBe('2x de R$ 19,95 sem juros')
    expect(monthly[11]).toBe('12x de R$ 3,33 sem juros')
    expect(await page.getByLabel('Parcelas').inputValue()).toBe('3')
    await page.getByLabel('Anual — R$ 399,00/ano').check()
    expect((await options())[2]).toBe('3x de R$ 133,00 sem juros')
  })

  it('buys with boleto: digitable line, barcode image and due date, then paid', async () => {
    const { page } = browser
    await page.goto(`${svc.url}/checkout/${recurring.slug}`)
    await fillBuyer(browser.page, 'carla.boleto@example.com')
    await page.getByLabel('Boleto', { exact: true }).check()
    const created = page.waitForResponse((r) => r.url().endsWith('/api/checkout/create'))
    await page.getByRole('button', { name: 'Gerar boleto' }).click()
    const order = await (await created).json()
    await page.locator('#boleto').waitFor({ state: 'visible' })
    const shown = await page.locator('#boleto-linha').inputValue()
    expect(shown).toMatch(/^\d{5}\.\d{5} \d{5}\.\d{6} \d{5}\.\d{6} \d \d{14}$/)
    expect(shown.replace(/\D/g, '')).toBe(order.boleto.digitable_line)
    expect(await page.locator('#boleto-barras').getAttribute('src')).toMatch(
      /^data:image\/svg\+xml/,
    )
    const [y, m, d] = order.boleto.due_date.split('-')
    expect(await page.locator('#boleto-vencimento').textContent()).toBe(`${d}/${m}/${y}`)
    await screenshot(page, 'checkout-boleto')
    await svc.api('POST', `/sandbox/charges/${order.charge_id}/pay`)
    await page.waitForURL(/\/success\?order_id=/, { timeout: 10_000 })
  })

  it('checks CPF/CNPJ check digits in the page before sending anything', async () => {
    const { page } = browser
    await page.goto(`${svc.url}/checkout/${oneTime.slug}`)
    await fillBuyer(browser.page, 'carla.cpf@example.com')
    await page.getByLabel('CPF ou CNPJ').fill('529.982.247-24')
    let created = false
    page.on('request', (r) => {
      if (r.url().endsWith('/api/checkout/create')) created = true
    })
    await page.getByRole('button', { name: 'Gerar PIX' }).click()
    await expect.poll(() => page.locator('#erro-cpf').textContent()).toBe('CPF ou CNPJ inválido.')
    expect(await page.getByLabel('CPF ou CNPJ').getAttribute('aria-invalid')).toBe('true')
    expect(created).toBe(false)
  })

  it('carries the affiliate cookie to a later visit without ref: last click wins and earns the commission', async () => {
    const enrol = async (email: string, percent: number) =>
      (
        await svc.api('POST', `/api/v1/products/${oneTime.id}/affiliates`, {
          key,
          body: { email, commission_percent: percent },
        })
      ).body.data as { id: string; code: string }
    const first = await enrol('primeira.afiliada@example.com', 10)
    const last = await enrol('ultima.afiliada@example.com', 25)
    const { page } = browser
    await page.goto(`${svc.url}/checkout/${oneTime.slug}?ref=${first.code}`)
    await page.goto(`${svc.url}/checkout/${oneTime.slug}?ref=${last.code}`)
    await page.goto(`${svc.url}/checkout/${oneTime.slug}`)
    const cookie = (await browser.context.cookies()).find((c) => c.name === 'vitrine_ref')
    expect(cookie?.value).toBe(last.code)
    expect(cookie!.expires - Date.now() / 1000).toBeGreaterThan(29.9 * 86_400)
    expect(cookie!.expires - Date.now() / 1000).toBeLessThanOrEqual(30 * 86_400)
    await fillBuyer(browser.page, 'carla.afiliada@example.com')
    const created = page.waitForResponse((r) => r.url().endsWith('/api/checkout/create'))
    await page.getByRole('button', { name: 'Gerar PIX' }).click()
    const response = await created
    expect(response.request().postDataJSON().affiliate_code).toBe(last.code)
    const order = await svc.api('GET', `/api/v1/orders/${(await response.json()).order_id}`, {
      key,
    })
    // 25 % of R$ 197,00, snapshotted on the order at checkout.
    expect(order.body.data).toMatchObject({ affiliate_id: last.id, affiliate_commission: 49.25 })
  })

  it('pre-fills from ?session= and keeps the session up to date as the buyer types', async () => {
    const opened = await svc.api('POST', '/api/checkout/sessions', {
      body: { product_id: oneTime.id, email: 'carla.sessao@example.com' },
    })
    const { session_id: id, session_token: token } = opened.body
    await svc.api('POST', `/api/v1/products/${oneTime.id}/coupons`, {
      key,
      body: { code: 'VOLTEI', amount_off: 20 },
    })
    await svc.api('PATCH', `/api/checkout/sessions/${id}`, {
      body: { session_token: token, name: 'Carla Sessão', cpf: VALID_CPF, coupon_code: 'voltei' },
    })
    const { page } = browser
    await page.goto(`${svc.url}/checkout/${oneTime.slug}?session=${id}`)
    expect(await page.getByLabel('E-mail').inputValue()).toBe('carla.sessao@example.com')
    expect(await page.getByLabel('Nome completo').inputValue()).toBe('Carla Sessão')
    // The stored CPF is never shown back: whoever knows the e-mail could open this link.
    expect(await page.getByLabel('CPF ou CNPJ').inputValue()).toBe('')
    expect(await page.content()).not.toContain(VALID_CPF)
    // The coupon the buyer had comes back with the session.
    expect(await page.locator('#preco').textContent()).toBe('R$ 177,00')
    expect(await page.getByText('Cupom VOLTEI aplicado').isVisible()).toBe(true)
    await screenshot(page, 'checkout-session-prefilled')

    await page.getByLabel('Celular').fill('(31) 98888-7777')
    await eventually(async () => {
      const row = await svc.deps.db
        .selectFrom('checkout_sessions')
        .selectAll()
        .where('id', '=', id)
        .executeTakeFirst()
      return row?.phone === '(31) 98888-7777'
    })
  })

  it('keeps the chosen plan in the session, so the ?session= link brings it back', async () => {
    const { page } = browser
    await page.goto(`${svc.url}/checkout/${recurring.slug}`)
    await page.getByLabel('E-mail').fill('carla.plano@example.com')
    const sessionWith = (planId: string) =>
      eventually(() =>
        svc.deps.db
          .selectFrom('checkout_sessions')
          .selectAll()
          .where('email', '=', 'carla.plano@example.com')
          .where('plan_id', '=', planId)
          .executeTakeFirst(),
      )
    await sessionWith(recurring.plans[0]!.id)
    await page.getByLabel('Anual — R$ 399,00/ano').check()
    const row = await sessionWith(recurring.plans[1]!.id)
    await page.goto(`${svc.url}/checkout/${recurring.slug}?session=${row.id}`)
    expect(await page.getByLabel('Anual — R$ 399,00/ano').isChecked()).toBe(true)
    expect(await page.locator('#preco').textContent()).toBe('R$ 399,00/ano')
  })

  it('sends the session only what it keeps: typing the card patches nothing', async () => {
    const { page } = browser
    const patches: string[] = []
    page.on('request', (r) => {
      if (r.method() === 'PATCH') patches.push(r.postData() ?? '')
    })
    await page.goto(`${svc.url}/checkout/${recurring.slug}`)
    await fillBuyer(page, 'carla.cartao.sessao@example.com')
    await expect.poll(() => patches.some((p) => p.includes('(21) 99876-5432'))).toBe(true)
    const before = patches.length
    await page.getByLabel('Cartão de crédito').check()
    await page.getByLabel('Número do cartão').fill('4111 1111 1111 1111')
    await page.getByLabel('Nome impresso no cartão').fill('CARLA COMPRADORA')
    await page.getByLabel('Validade (MM/AA)').fill('12/30')
    // Past the page's 600 ms pause after typing, when a patch would have gone.
    await page.waitForTimeout(1_500)
    expect(patches).toHaveLength(before)
    await page.getByLabel('Celular').fill('(21) 99876-0000')
    await expect.poll(() => patches.length).toBe(before + 1)
  })

  it('shows a 404 page for an unknown product', async () => {
    const { page } = browser
    const response = await page.goto(`${svc.url}/checkout/nao-existe-mais`)
    expect(response?.status()).toBe(404)
    await expect.poll(() => page.locator('h1').textContent()).toBe('Produto não encontrado')
  })
})
