// The creator's dashboard in Chromium: log in, see the balance, a sale and the product's checkout
// link. The balance, withdrawal, PIX key, webhook and API key journeys live in
// dashboard-money*.test.ts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { followLoginLink, signupCreator } from '../setup/actors.ts'
import { openBrowser, screenshot } from '../setup/browser.ts'
import { paidSale } from '../setup/ledger.ts'
import { ADMIN } from '../setup/payouts.ts'
import { engine, startTestService, type TestService } from '../setup/service.ts'

let svc: TestService
beforeAll(async () => {
  svc = await startTestService(ADMIN)
})
afterAll(() => svc?.stop())

describe(`creator dashboard (${engine})`, () => {
  it('shows the balance, sales and products', async () => {
    const creator = await signupCreator(svc.api, 'Rita Ceramista')
    const key = await creator.key(['write:products'])
    await paidSale(svc, creator, { price: 150, key })

    const browser = await openBrowser()
    try {
      const { page } = browser
      const response = await page.goto(`${svc.url}/dashboard`)
      expect(response?.status()).toBe(401)
      await page.getByLabel('E-mail').fill(creator.email)
      await page.getByLabel('Senha').fill('senha-forte-123')
      await page.getByRole('button', { name: 'Entrar' }).click()

      const overview = page.getByRole('region', { name: 'Saldo' })
      await expect.poll(() => overview.textContent()).toContain('R$ 150,00')
      const sales = page.getByRole('region', { name: 'Vendas recentes' })
      expect(await sales.textContent()).toMatch(/R\$ 150,00 · pago · Curso de Teste/)
      const nav = page.getByRole('navigation', { name: 'Seções do painel' })
      await nav.getByRole('link', { name: 'Produtos' }).click()
      const products = page.getByRole('region', { name: 'Produtos' })
      const link = products.getByRole('link', { name: /\/checkout\// })
      expect(await link.getAttribute('href')).toMatch(/\/checkout\/curso-[0-9a-f]+$/)
      await screenshot(page, 'dashboard')
      // Mobile-first: nothing wider than the 360 px screen.
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
        360,
      )
    } finally {
      await browser.close()
    }
  })

  it('a buyer who logs in has no dashboard', async () => {
    const creator = await signupCreator(svc.api)
    const { orderId } = await paidSale(svc, creator)
    const order = await svc.deps.db
      .selectFrom('orders')
      .select('buyer_email')
      .where('id', '=', orderId)
      .executeTakeFirstOrThrow()
    const mails = (await svc.api('GET', `/api/dev/emails?to=${order.buyer_email}`)).body.data
    const texts = mails.map((m: { text: string }) => m.text).join('\n')
    const link = /(http\S+\/members\/login\?token=\S+)/.exec(texts)![1]!
    const { cookie } = await followLoginLink(svc.url, link)
    const res = await fetch(`${svc.url}/dashboard`, { headers: { cookie } })
    expect(res.status).toBe(403)
    expect(await res.text()).toContain('não tem uma conta de produtor')
  })
})
