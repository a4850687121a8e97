// The creator's dashboard in Chromium: log in, see the balance, a sale, the product's checkout
// link and a delivered webhook; save a PIX key, be refused a withdrawal while it waits for
// verification (the seed's message, on screen), then request one once it is verified.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { followLoginLink, signupCreator } from '../setup/actors.ts'
import { openBrowser, screenshot } from '../setup/browser.ts'
import { paidSale } from '../setup/ledger.ts'
import { ADMIN, adminSession, balanceOf } from '../setup/payouts.ts'
import { startReceiver } from '../setup/receiver.ts'
import { engine, startTestService, type TestService } from '../setup/service.ts'

let svc: TestService
beforeAll(async () => {
  svc = await startTestService(ADMIN)
})
afterAll(() => svc?.stop())

describe(`creator dashboard (${engine})`, () => {
  it('shows the money, sales, products and webhooks; PIX key and withdrawal forms work', async () => {
    const creator = await signupCreator(svc.api, 'Rita Ceramista')
    const receiver = await startReceiver()
    const key = await creator.key(['write:products', 'write:webhooks'])
    const hook = await svc.api('POST', '/api/v1/webhooks', {
      key,
      body: { url: receiver.url, events: ['order.paid'] },
    })
    expect(hook.status).toBe(201)
    await paidSale(svc, creator, { price: 150, key })

    const browser = await openBrowser()
    try {
      const { page } = browser
      const response = await page.goto(`${svc.url}/dashboard`)
      expect(response?.status()).toBe(401)
      await page.getByLabel('E-mail').fill(creator.email)
      await page.getByLabel('Senha').fill('senha-forte-123')
      await page.getByRole('button', { name: 'Entrar' }).click()

      const money = page.getByRole('region', { name: 'Saldo' })
      await expect.poll(() => money.textContent()).toContain('R$ 150,00')
      const sales = page.getByRole('region', { name: 'Vendas recentes' })
      expect(await sales.textContent()).toMatch(/R\$ 150,00 · pago · Curso de Teste/)
      const products = page.getByRole('region', { name: 'Produtos' })
      const link = products.getByRole('link')
      expect(await link.getAttribute('href')).toMatch(/\/checkout\/curso-[0-9a-f]+$/)
      const hooks = page.getByRole('region', { name: 'Webhooks' })
      await expect
        .poll(async () => {
          await page.reload()
          return hooks.textContent()
        })
        .toContain('order.paid · entregue')

      // A key waiting for verification: the withdrawal is refused with the seed's message.
      const pix = page.getByRole('region', { name: 'Chave Pix' })
      await pix.getByLabel('Tipo de chave').selectOption('cpf')
      await pix.getByLabel('Chave Pix').fill('529.982.247-25')
      await pix.getByRole('button', { name: 'Salvar chave' }).click()
      await expect.poll(() => pix.textContent()).toContain('aguardando verificação')
      expect(await pix.textContent()).toContain('***')
      await money.getByLabel('Valor do saque (R$)').fill('100')
      await money.getByRole('button', { name: 'Solicitar saque' }).click()
      await expect
        .poll(() => page.getByRole('alert').textContent())
        .toBe('Sua chave Pix está aguardando verificação')

      const verified = await svc.api('POST', `/api/admin/pix-keys/${creator.userId}/verify`, {
        session: await adminSession(svc.api),
      })
      expect(verified.status).toBe(200)
      await page.reload()
      await money.getByLabel('Valor do saque (R$)').fill('100')
      await money.getByRole('button', { name: 'Solicitar saque' }).click()
      const withdrawals = page.getByRole('region', { name: 'Saques' })
      await expect.poll(() => withdrawals.textContent()).toContain('R$ 100,00 · pendente')
      expect(await money.textContent()).toContain('R$ 50,00')
      expect(await balanceOf(svc.api, creator)).toMatchObject({ available: 50 })
      await screenshot(page, 'dashboard')
      // Mobile-first: nothing wider than the 360 px screen.
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
        360,
      )
    } finally {
      await browser.close()
      await receiver.close()
    }
  })

  it('creates an API key shown once, which then works, and revokes it', async () => {
    const creator = await signupCreator(svc.api, 'Téo Luthier')
    const browser = await openBrowser()
    try {
      const { page } = browser
      await page.goto(`${svc.url}/dashboard`)
      await page.getByLabel('E-mail').fill(creator.email)
      await page.getByLabel('Senha').fill('senha-forte-123')
      await page.getByRole('button', { name: 'Entrar' }).click()

      const keys = page.getByRole('region', { name: 'Chaves de API' })
      await keys.getByLabel('Nome da chave').fill('Integração ERP')
      await keys.getByRole('button', { name: 'Criar chave' }).click()
      await expect
        .poll(() => page.getByRole('alert').textContent())
        .toBe('Escolha pelo menos uma permissão.')
      await keys.getByLabel('read:orders').check()
      await keys.getByLabel('read:products').check()
      await keys.getByRole('button', { name: 'Criar chave' }).click()
      const shown = keys.getByRole('status')
      await shown.waitFor({ state: 'visible' })
      const key = (await shown.locator('code').textContent())!
      expect(key).toMatch(/^vt_/)
      await screenshot(page, 'dashboard-api-key')
      expect((await svc.api('GET', '/api/v1/orders', { key })).status).toBe(200)
      expect((await svc.api('GET', '/api/v1/webhooks', { key })).status).toBe(403)

      await page.reload()
      const item = keys.getByRole('listitem').filter({ hasText: 'Integração ERP' })
      expect(await item.textContent()).toContain('read:orders, read:products')
      expect(await item.textContent()).toContain('usada em')
      expect(await page.content()).not.toContain(key)
      await item.getByRole('button', { name: 'Revogar Integração ERP' }).click()
      await expect.poll(() => item.count()).toBe(0)
      expect((await svc.api('GET', '/api/v1/orders', { key })).status).toBe(401)
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
