// The catalog sections of the dashboard in Chromium: a product with two plans created in the
// browser, its link copied and opened (the checkout offers both plans), a price edited, a plan
// removed, a coupon created, the product archived (a dismissed confirmation first changes
// nothing) and deleted; an affiliate and a co-producer invited and listed; the API's refusals
// shown beside the form; axe at both widths and no sideways scroll at 360 px on every page.
// The journeys are long (two axe runs per page), hence their own time limit on a loaded machine.
import { randomBytes } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { signupCreator } from '../setup/actors.ts'
import { openBrowser, screenshot } from '../setup/browser.ts'
import { engine, startTestService, type TestService } from '../setup/service.ts'
import { checkPage, logIn } from './dashboard-steps.ts'

let svc: TestService
beforeAll(async () => {
  svc = await startTestService()
})
afterAll(() => svc?.stop())

async function productOf(key: string, id: string) {
  const res = await svc.api('GET', `/api/v1/products/${id}`, { key })
  expect(res.status).toBe(200)
  return res.body.data
}

describe(`dashboard: catalog (${engine})`, () => {
  it('creates a product with two plans and a coupon, copies its link, edits a price and archives it', async () => {
    const creator = await signupCreator(svc.api, 'Lia Ceramista')
    const key = await creator.key(['read:products'])
    const suffix = randomBytes(3).toString('hex')
    const browser = await openBrowser()
    try {
      const { page } = browser
      let accept = false
      const asked: string[] = []
      page.on('dialog', (dialog) => {
        asked.push(dialog.message())
        return accept ? dialog.accept() : dialog.dismiss()
      })
      await logIn(page, `${svc.url}/dashboard/produtos`, creator)

      // The empty section says how to start.
      const list = page.getByRole('region', { name: 'Seus produtos' })
      expect(await list.textContent()).toContain('Você ainda não tem produtos')
      await checkPage(page)
      await list.getByRole('link', { name: 'Novo produto' }).click()

      const form = page.getByRole('region', { name: 'Dados do produto' })
      await form.getByLabel('Nome do produto').fill(`Cerâmica Básica ${suffix}`)
      // The slug follows the name until the creator types one.
      expect(await form.getByLabel('Endereço do link (slug)').inputValue()).toBe(
        `ceramica-basica-${suffix}`,
      )
      await form.getByLabel('Assinatura (recorrente)').check()
      expect(await form.getByLabel('Cartão de crédito').isChecked()).toBe(true)
      expect(await form.getByLabel(/O comprador paga/).isDisabled()).toBe(true)
      await form.getByLabel('Nome do plano 1').fill('Mensal')
      await form.getByLabel('Preço do plano 1 (R$)').fill('49,90')
      await form.getByRole('button', { name: 'Adicionar plano' }).click()
      await form.getByLabel('Nome do plano 2').fill('Anual')
      await form.getByLabel('Preço do plano 2 (R$)').fill('499,00')
      await form.getByLabel('Cobrança do plano 2').selectOption('year')
      // A third row added and removed again leaves two plans numbered 1 and 2.
      await form.getByRole('button', { name: 'Adicionar plano' }).click()
      await form.getByRole('button', { name: 'Remover plano 3' }).click()
      expect(await form.getByRole('button', { name: /^Remover plano/ }).count()).toBe(2)

      // The API's refusal, beside the form, in the field's Portuguese name.
      for (const method of ['Pix', 'Cartão de crédito', 'Boleto'])
        await form.getByLabel(method).uncheck()
      await form.getByRole('button', { name: 'Criar produto' }).click()
      await expect
        .poll(() => form.getByRole('alert').textContent())
        .toBe('Confira: Formas de pagamento.')
      await form.getByLabel('Pix').check()
      await form.getByLabel('Cartão de crédito').check()
      await form
        .getByLabel('Imagem do produto (link https)')
        .fill('https://cdn.example.com/capa.png')
      await form.getByRole('button', { name: 'Criar produto' }).click()

      await page.waitForURL(/\/dashboard\/produtos\/[0-9a-f-]{36}\?criado=1$/)
      const id = /produtos\/([0-9a-f-]{36})/.exec(page.url())![1]!
      const created = await productOf(key, id)
      expect(created).toMatchObject({
        billing: 'recurring',
        slug: `ceramica-basica-${suffix}`,
        payment_methods: ['pix', 'card'],
        image_url: 'https://cdn.example.com/capa.png',
        plans: [
          { name: 'Mensal', price: 49.9, interval: 'month', interval_count: 1 },
          { name: 'Anual', price: 499, interval: 'year', interval_count: 1 },
        ],
      })

      // Copy the link, open it: the checkout offers both plans.
      const linkBox = page.getByRole('region', { name: 'Link de checkout' })
      expect(await linkBox.textContent()).toContain('Produto criado')
      await browser.context.grantPermissions(['clipboard-read', 'clipboard-write'], {
        origin: svc.url,
      })
      await linkBox.getByRole('button', { name: 'Copiar link de checkout' }).click()
      await expect.poll(() => page.locator('#aviso').textContent()).toBe('Copiado.')
      const link = await page.evaluate(() => navigator.clipboard.readText())
      expect(link).toBe(created.checkout_url)
      expect(await linkBox.getByRole('link').getAttribute('href')).toBe(link)
      const checkout = await fetch(link)
      expect(checkout.status).toBe(200)
      const html = await checkout.text()
      for (const text of [
        'Mensal',
        'Anual',
        'R$ 49,90',
        'R$ 499,00',
        'https://cdn.example.com/capa.png',
      ])
        expect(html).toContain(text)
      await checkPage(page)

      // Edit the first plan's price: the same plan (same id) now costs more.
      const edit = page.getByRole('region', { name: 'Dados do produto' })
      await edit.getByLabel('Preço do plano 1 (R$)').fill('59,90')
      await edit.getByRole('button', { name: 'Salvar alterações' }).click()
      await expect.poll(() => page.locator('#aviso').textContent()).toBe('Alterações salvas.')
      const edited = await productOf(key, id)
      expect(edited.plans.map((p: { id: string; price: number }) => [p.id, p.price])).toEqual([
        [created.plans[0].id, 59.9],
        [created.plans[1].id, 499],
      ])
      expect(await edit.getByLabel('Preço do plano 1 (R$)').inputValue()).toBe('59,90')

      // A removed row's plan is archived: the product keeps one plan, the checkout one offer.
      await edit.getByRole('button', { name: 'Remover plano 2' }).click()
      await edit.getByRole('button', { name: 'Salvar alterações' }).click()
      await expect.poll(async () => (await productOf(key, id)).plans.length).toBe(1)
      expect((await productOf(key, id)).plans[0].id).toBe(created.plans[0].id)
      expect(await (await fetch(link)).text()).not.toContain('Anual')

      // A coupon for it, listed with its uses.
      const nav = page.getByRole('navigation', { name: 'Seções do painel' })
      await nav.getByRole('link', { name: 'Cupons' }).click()
      const coupons = page.getByRole('region', { name: /^Cupons de Cerâmica/ })
      expect(await coupons.textContent()).toContain('Nenhum cupom ainda')
      const newCoupon = page.getByRole('region', { name: 'Novo cupom' })
      await newCoupon.getByLabel('Código do cupom').fill('bemvindo')
      await newCoupon.getByLabel('Desconto em %').fill('10')
      await newCoupon.getByLabel('Válido até (opcional)').fill('2099-12-31')
      await newCoupon.getByLabel('Limite de usos (opcional)').fill('5')
      await newCoupon.getByRole('button', { name: 'Criar cupom' }).click()
      await expect.poll(() => coupons.textContent()).toContain('BEMVINDO · 10% de desconto')
      expect(await coupons.textContent()).toContain('0 de 5 uso(s) · válido até 31/12/2099')
      // The coupon's link opens the checkout with the discount applied.
      await coupons.getByRole('button', { name: 'Copiar link com o cupom BEMVINDO' }).click()
      await expect.poll(() => page.locator('#aviso').textContent()).toBe('Copiado.')
      const couponLink = await page.evaluate(() => navigator.clipboard.readText())
      expect(couponLink).toBe(`${link}?coupon=BEMVINDO`)
      expect(await (await fetch(couponLink)).text()).toContain('R$ 53,91')
      const listed = await svc.api('GET', `/api/v1/products/${id}/coupons`, { key })
      expect(listed.body.data).toMatchObject([
        {
          code: 'BEMVINDO',
          percent_off: 10,
          max_redemptions: 5,
          expires_at: '2100-01-01T02:59:59.000Z',
        },
      ])
      // Both discounts at once: the API's message beside the form.
      await newCoupon.getByLabel('Código do cupom').fill('DOBRADO')
      await newCoupon.getByLabel('Desconto em %').fill('10')
      await newCoupon.getByLabel('Desconto em R$').fill('5')
      await newCoupon.getByRole('button', { name: 'Criar cupom' }).click()
      await expect.poll(() => newCoupon.getByRole('alert').textContent()).toContain('um dos dois')
      await checkPage(page)
      await screenshot(page, 'dashboard-coupons')

      // Archive: dismissed first (nothing changes), then confirmed.
      await nav.getByRole('link', { name: 'Produtos' }).click()
      const item = page.getByRole('listitem').filter({ hasText: `Cerâmica Básica ${suffix}` })
      expect(await item.first().textContent()).toContain('R$ 59,90 por mês')
      await checkPage(page)
      await page.getByRole('link', { name: `Editar Cerâmica Básica ${suffix}` }).click()
      await page.getByRole('button', { name: 'Arquivar produto' }).click()
      await expect.poll(() => asked.length).toBe(1)
      expect(asked[0]).toMatch(/^Arquivar Cerâmica Básica .* O link de checkout para de vender/)
      expect(await page.locator('#aviso').textContent()).toBe('')
      expect((await productOf(key, id)).status).toBe('active')
      expect(await page.getByRole('region', { name: 'Situação: ativo' }).count()).toBe(1)
      accept = true
      await page.getByRole('button', { name: 'Arquivar produto' }).click()
      await expect.poll(() => asked.length).toBe(2)
      await expect.poll(() => page.locator('#aviso').textContent()).toBe('Produto arquivado.')
      expect((await productOf(key, id)).status).toBe('archived')
      expect(await page.getByRole('region', { name: 'Situação: arquivado' }).count()).toBe(1)
      expect((await fetch(link)).status).toBe(404)
      await checkPage(page)
      await screenshot(page, 'dashboard-product-archived')

      // Without orders, "Excluir" deletes it for good and goes back to the (empty) list.
      await page.getByRole('button', { name: 'Excluir produto' }).click()
      await expect.poll(() => asked.length).toBe(3)
      await page.waitForURL(`${svc.url}/dashboard/produtos`)
      expect(await page.getByRole('region', { name: 'Seus produtos' }).textContent()).toContain(
        'Você ainda não tem produtos',
      )
      expect((await svc.api('GET', `/api/v1/products/${id}`, { key })).status).toBe(404)
    } finally {
      await browser.close('dashboard-catalog-product')
    }
  }, 120_000)

  it('invites an affiliate and a co-producer, changes a commission, refuses splits over 100 %', async () => {
    const creator = await signupCreator(svc.api, 'Davi Marceneiro')
    const key = await creator.key(['write:products', 'read:products'])
    const slug = `marcenaria-${randomBytes(3).toString('hex')}`
    const product = await svc.api('POST', '/api/v1/products', {
      key,
      body: {
        name: 'Marcenaria',
        slug,
        billing: 'one_time',
        plans: [{ name: 'Curso', price: 120 }],
      },
    })
    expect(product.status).toBe(201)
    const productId = product.body.data.id as string
    // A newer product is the one shown first; the picker switches to the other.
    const other = await svc.api('POST', '/api/v1/products', {
      key,
      body: {
        name: 'Entalhe',
        slug: `${slug}-b`,
        billing: 'one_time',
        plans: [{ name: 'Curso', price: 80 }],
      },
    })
    expect(other.status).toBe(201)
    const browser = await openBrowser()
    try {
      const { page } = browser
      page.on('dialog', (dialog) => dialog.accept())
      await logIn(page, `${svc.url}/dashboard/parceiros`, creator)
      expect(await page.getByLabel('Produto', { exact: true }).inputValue()).toBe(
        other.body.data.id,
      )
      await page.getByLabel('Produto', { exact: true }).selectOption({ label: 'Marcenaria' })
      await page.getByRole('button', { name: 'Ver parceiros' }).click()
      await page.waitForURL(`${svc.url}/dashboard/parceiros?produto=${productId}`)
      const affiliates = page.getByRole('region', { name: 'Afiliados', exact: true })
      expect(await affiliates.textContent()).toContain('Nenhum afiliado ainda')

      const invite = page.getByRole('region', { name: 'Convidar afiliado' })
      await invite.getByLabel('E-mail do afiliado').fill('afiliada@example.com')
      await invite.getByLabel('Comissão do afiliado (%)').fill('30')
      await invite.getByRole('button', { name: 'Convidar afiliado' }).click()
      await expect.poll(() => affiliates.textContent()).toContain('30% de comissão')
      const listed = await svc.api('GET', `/api/v1/products/${productId}/affiliates`, { key })
      const affiliate = listed.body.data[0]
      expect(affiliate.referral_url).toBe(`${product.body.data.checkout_url}?ref=${affiliate.code}`)
      expect(await affiliates.getByRole('link').getAttribute('href')).toBe(affiliate.referral_url)
      expect(await affiliates.textContent()).toContain(affiliate.code)

      await affiliates.getByLabel(/^Nova comissão de/).fill('25,5')
      await affiliates.getByRole('button', { name: 'Alterar comissão' }).click()
      await expect.poll(() => affiliates.textContent()).toContain('25,5% de comissão')
      const changed = await svc.api('GET', `/api/v1/products/${productId}/affiliates`, { key })
      expect(changed.body.data[0].commission_percent).toBe(25.5)

      const coproducers = page.getByRole('region', { name: 'Coprodutores', exact: true })
      const inviteCo = page.getByRole('region', { name: 'Convidar coprodutor' })
      await inviteCo.getByLabel('E-mail do coprodutor').fill('socia@example.com')
      await inviteCo.getByLabel('Parte do coprodutor (%)').fill('60')
      await inviteCo.getByRole('button', { name: 'Convidar coprodutor' }).click()
      await expect.poll(() => coproducers.textContent()).toContain('socia@example.com')
      expect(await coproducers.textContent()).toContain('Soma das partes: 60% de 100%')
      await inviteCo.getByLabel('E-mail do coprodutor').fill('outro@example.com')
      await inviteCo.getByLabel('Parte do coprodutor (%)').fill('50')
      await inviteCo.getByRole('button', { name: 'Convidar coprodutor' }).click()
      await expect
        .poll(() => inviteCo.getByRole('alert').textContent())
        .toBe('A soma das divisões com coprodutores não pode passar de 100%')
      const cos = await svc.api('GET', `/api/v1/products/${productId}/coproducers`, { key })
      expect(cos.body.data).toMatchObject([{ email: 'socia@example.com', split_percent: 60 }])
      await checkPage(page)
      await screenshot(page, 'dashboard-partners')
    } finally {
      await browser.close('dashboard-catalog-partners')
    }
  }, 120_000)

  it('answers an unknown or malformed product id with a 404 page that says so', async () => {
    const creator = await signupCreator(svc.api)
    const headers = { cookie: creator.session.cookie }
    for (const id of ['0190b0a0-0000-7000-8000-000000000000', 'nao-e-um-id']) {
      const res = await fetch(`${svc.url}/dashboard/produtos/${id}`, { headers })
      expect(res.status).toBe(404)
      expect(await res.text()).toContain('Este produto não existe nesta conta')
    }
    // Sections per product without products point to the first step; a bad ?produto= is ignored.
    const coupons = await fetch(`${svc.url}/dashboard/cupons?produto=x`, { headers })
    expect(coupons.status).toBe(200)
    expect(await coupons.text()).toContain('Criar o primeiro produto')
  })
})
