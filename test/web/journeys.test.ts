// Issue 12's journeys, each role in its own real Chromium, every step through the pages (the
// buyer's payment confirmed by the sandbox gateway's control, as a bank would): a creator from
// sign-up to a refunded sale; an affiliate's link earning its commission; the admin paying a
// creator's withdrawal. The buyer's own journey (the e-mail link, the members area, log-out, a
// new link) is test/web/members-area.test.ts. Screenshots of each end state are kept.
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { signupCreator } from '../setup/actors.ts'
import { openBrowser, type TestBrowser } from '../setup/browser.ts'
import { ADMIN } from '../setup/payouts.ts'
import { createProduct } from '../setup/purchase.ts'
import { engine, startTestService, type TestService } from '../setup/service.ts'
import { fillBuyer } from './checkout-fixtures.ts'
import { confirmations, logIn } from './dashboard-steps.ts'

let svc: TestService
beforeAll(async () => {
  svc = await startTestService(ADMIN)
})
afterAll(() => svc?.stop())

const JOURNEY_MS = 180_000

/** A buyer pays `link` by PIX in their own browser; the sandbox confirms it. Returns the order. */
async function buyByPix(link: string, email: string, coupon?: string) {
  const buyer = await openBrowser()
  try {
    const { page } = buyer
    await page.goto(link)
    if (coupon) {
      await page.getByLabel('Cupom de desconto').fill(coupon)
      await page.getByRole('button', { name: 'Aplicar' }).click()
      await expect.poll(() => page.getByRole('status').first().textContent()).toContain('aplicado')
    }
    await fillBuyer(page, email)
    const created = page.waitForResponse((r) => r.url().endsWith('/api/checkout/create'))
    await page.getByRole('button', { name: 'Gerar PIX' }).click()
    const order = (await (await created).json()) as {
      order_id: string
      charge_id: string
      amount: number
    }
    await page.locator('#pix').waitFor({ state: 'visible' })
    const paid = await svc.api('POST', `/sandbox/charges/${order.charge_id}/pay`)
    expect(paid.body.callback_status).toBe(200)
    // The page follows the order's status to the success page.
    await page.waitForURL(/\/success/)
    return order
  } finally {
    await buyer.close()
  }
}

async function nav(page: Page, section: string) {
  await page
    .getByRole('navigation', { name: 'Seções do painel' })
    .getByRole('link', { name: section })
    .click()
}

describe(`journeys per role (${engine})`, () => {
  it(
    'creator: sign up → PIX key → product with two plans and a coupon → link → a sale → the order and the chart → refund',
    async () => {
      const email = `jornada-${Date.now()}@example.com`
      let browser: TestBrowser | undefined = await openBrowser()
      try {
        const { page } = browser
        confirmations(page)
        await browser.context.grantPermissions(['clipboard-read', 'clipboard-write'], {
          origin: svc.url,
        })

        // Sign up: the empty dashboard lists the first steps.
        await page.goto(`${svc.url}/entrar`)
        await page.getByRole('link', { name: 'Criar conta de produtor' }).click()
        await page.getByLabel('Seu nome').fill('Jana Jornada')
        await page.getByLabel('E-mail').fill(email)
        await page.getByLabel('Senha (pelo menos 8 caracteres)').fill('senha-da-jana-1')
        await page.getByRole('button', { name: 'Criar conta' }).click()
        await page.waitForURL(`${svc.url}/dashboard`)
        const steps = page.getByRole('region', { name: 'Primeiros passos' })
        expect(await steps.getByRole('listitem').count()).toBe(3)

        // PIX key.
        await steps.getByRole('link', { name: 'Cadastrar chave Pix' }).click()
        const pix = page.getByRole('region', { name: 'Chave Pix' })
        await pix.getByLabel('Tipo de chave').selectOption('cpf')
        await pix.getByLabel('Chave Pix').fill('529.982.247-25')
        await pix.getByRole('button', { name: 'Salvar chave' }).click()
        await expect.poll(() => pix.textContent()).toContain('aguardando verificação')

        // A product with two plans.
        await nav(page, 'Produtos')
        await page.getByRole('link', { name: 'Novo produto' }).click()
        const form = page.getByRole('region', { name: 'Dados do produto' })
        await form.getByLabel('Nome do produto').fill('Curso de Aquarela')
        await form.getByLabel('Nome do plano 1').fill('Essencial')
        await form.getByLabel('Preço do plano 1 (R$)').fill('100,00')
        await form.getByRole('button', { name: 'Adicionar plano' }).click()
        await form.getByLabel('Nome do plano 2').fill('Completo')
        await form.getByLabel('Preço do plano 2 (R$)').fill('180,00')
        await form.getByRole('button', { name: 'Criar produto' }).click()
        await page.waitForURL(/\/dashboard\/produtos\/[0-9a-f-]{36}/)

        // Copy its link.
        const linkBox = page.getByRole('region', { name: 'Link de checkout' })
        await linkBox.getByRole('button', { name: 'Copiar link de checkout' }).click()
        await expect.poll(() => page.locator('#aviso').textContent()).toBe('Copiado.')
        const link = await page.evaluate(() => navigator.clipboard.readText())
        expect(link).toMatch(/\/checkout\/curso-de-aquarela/)

        // A coupon for it.
        await nav(page, 'Cupons')
        const newCoupon = page.getByRole('region', { name: 'Novo cupom' })
        await newCoupon.getByLabel('Código do cupom').fill('estreia')
        await newCoupon.getByLabel('Desconto em %').fill('10')
        await newCoupon.getByRole('button', { name: 'Criar cupom' }).click()
        await expect
          .poll(() =>
            page.getByRole('region', { name: /^Cupons de Curso de Aquarela/ }).textContent(),
          )
          .toContain('ESTREIA')

        // A buyer pays at the checkout with the coupon: R$ 100,00 − 10 %.
        const order = await buyByPix(link, 'aluna.aquarela@example.com', 'estreia')
        expect(order.amount).toBe(90)

        // The overview's figures and chart moved; the order is listed.
        await nav(page, 'Visão geral')
        const period = page.getByRole('region', { name: 'Últimos 30 dias' })
        expect(await period.locator('dl').textContent()).toContain('ReceitaR$ 90,00')
        const days = period.getByRole('list', { name: 'Receita por dia, em números' })
        expect(await days.getByRole('listitem').last().textContent()).toContain('R$ 90,00')
        await nav(page, 'Pedidos')
        await page.getByRole('link', { name: 'Ver pedido de aluna.aquarela@example.com' }).click()
        expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe(
          'Pedido de R$ 90,00',
        )

        // Refund it, with a reason.
        const refund = page.getByRole('region', { name: 'Reembolso' })
        await refund.getByLabel('Motivo do reembolso').fill('A aluna desistiu')
        await refund.getByRole('button', { name: 'Reembolsar R$ 90,00' }).click()
        await expect.poll(() => page.locator('#aviso').textContent()).toBe('Reembolso solicitado.')
        await expect
          .poll(async () => {
            await page.reload()
            return page.getByRole('region', { name: 'Resumo' }).textContent()
          })
          .toContain('reembolsado')
        await browser.close('journey-creator')
        browser = undefined
      } finally {
        await browser?.close('journey-creator-failed')
      }
    },
    JOURNEY_MS,
  )

  it(
    "affiliate: invited in the dashboard → a sale through the affiliate's link → the commission shown",
    async () => {
      const creator = await signupCreator(svc.api, 'Rui Marceneiro')
      const key = await creator.key(['write:products'])
      await createProduct(svc.api, key, { plans: [{ name: 'Único', price: 200 }] })
      const browser = await openBrowser()
      try {
        const { page } = browser
        await logIn(page, `${svc.url}/dashboard/parceiros`, creator)
        const invite = page.getByRole('region', { name: 'Convidar afiliado' })
        await invite.getByLabel('E-mail do afiliado').fill(`afiliada-${Date.now()}@example.com`)
        await invite.getByLabel('Comissão do afiliado (%)').fill('30')
        await invite.getByRole('button', { name: 'Convidar afiliado' }).click()
        const affiliates = page.getByRole('region', { name: 'Afiliados', exact: true })
        await expect.poll(() => affiliates.getByRole('link').count()).toBe(1)
        const referral = (await affiliates.getByRole('link').getAttribute('href'))!

        await buyByPix(referral, 'comprador.indicado@example.com')

        await nav(page, 'Pedidos')
        await page
          .getByRole('link', { name: 'Ver pedido de comprador.indicado@example.com' })
          .click()
        // 30 % of R$ 200,00.
        expect(await page.getByRole('region', { name: 'Resumo' }).textContent()).toContain(
          'Comissão de afiliadoR$ 60,00',
        )
      } finally {
        await browser.close('journey-affiliate')
      }
    },
    JOURNEY_MS,
  )

  it(
    "admin verifies the creator's PIX key → the creator withdraws → the admin pays it",
    async () => {
      const creator = await signupCreator(svc.api, 'Tina Tecelã')
      const key = await creator.key(['write:products'])
      const product = await createProduct(svc.api, key, { plans: [{ name: 'Único', price: 150 }] })
      await buyByPix(product.checkout_url, 'cliente.tina@example.com')
      await svc.api('PATCH', '/api/profile/pix', {
        session: creator.session,
        body: { pix_key_type: 'cpf', pix_key: '529.982.247-25' },
      })

      const admin = await openBrowser()
      const seller = await openBrowser()
      try {
        const adminPage = admin.page
        await adminPage.goto(`${svc.url}/admin`)
        await adminPage.getByLabel('E-mail').fill(ADMIN.ADMIN_EMAIL)
        await adminPage.getByLabel('Senha').fill(ADMIN.ADMIN_PASSWORD)
        await adminPage.getByRole('button', { name: 'Entrar' }).click()
        const keys = adminPage.getByRole('region', { name: 'Chaves Pix para verificar' })
        const pending = keys.getByRole('listitem').filter({ hasText: creator.email })
        await pending.getByRole('button', { name: 'Verificar' }).click()
        await expect.poll(() => pending.count()).toBe(0)

        const page = seller.page
        confirmations(page)
        await logIn(page, `${svc.url}/dashboard/saldo`, creator)
        const money = page.getByRole('region', { name: 'Saldo', exact: true })
        await money.getByLabel('Valor do saque (R$)').fill('150')
        await money.getByRole('button', { name: 'Solicitar saque' }).click()
        const withdrawals = page.getByRole('region', { name: 'Saques' })
        await expect.poll(() => withdrawals.textContent()).toContain('pendente')

        await adminPage.reload()
        const row = adminPage
          .getByRole('region', { name: 'Saques' })
          .getByRole('listitem')
          .filter({ hasText: creator.email })
        await row.getByRole('button', { name: 'Aprovar' }).click()
        await adminPage
          .getByRole('dialog', { name: 'Aprovar saque?' })
          .getByRole('button', { name: 'Aprovar' })
          .click()
        await expect.poll(() => row.textContent()).toContain('aprovado')
        await row.getByRole('button', { name: 'Pagar via Pix' }).click()
        await adminPage
          .getByRole('dialog', { name: 'Pagar saque via Pix?' })
          .getByRole('button', { name: 'Pagar' })
          .click()
        await expect
          .poll(() => adminPage.getByRole('status').first().textContent())
          .toBe('Saque de R$ 150,00 de Tina Tecelã pago.')

        await page.reload()
        await expect.poll(() => withdrawals.textContent()).toContain('pago')
        expect(await money.textContent()).toContain('R$ 0,00')
      } finally {
        await seller.close('journey-withdrawal-creator')
        await admin.close('journey-withdrawal-admin')
      }
    },
    JOURNEY_MS,
  )
})
