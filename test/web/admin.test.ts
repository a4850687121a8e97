// The platform admin's back office in Chromium: log in, find an order by the buyer's e-mail and
// the account by its owner's, verify a PIX key; a creator withdraws (API); the admin sees the
// holder's balance beside it, confirms (amount, holder, key shown), approves, pays, and each
// action says so; a refusal needs a reason and a confirmation. axe at 360 and 1280 px.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { signupCreator } from '../setup/actors.ts'
import { openBrowser, screenshot, type TestBrowser } from '../setup/browser.ts'
import { paidSale } from '../setup/ledger.ts'
import { ADMIN, balanceOf, withdraw } from '../setup/payouts.ts'
import { engine, startTestService, type TestService } from '../setup/service.ts'
import { AXE_WIDTHS, seriousAxeViolations } from './axe.ts'

let svc: TestService
beforeAll(async () => {
  svc = await startTestService(ADMIN)
})
afterAll(() => svc?.stop())

async function logIn(page: TestBrowser['page']) {
  await page.goto(`${svc.url}/admin`)
  await page.getByLabel('E-mail').fill(ADMIN.ADMIN_EMAIL)
  await page.getByLabel('Senha').fill(ADMIN.ADMIN_PASSWORD)
  await page.getByRole('button', { name: 'Entrar' }).click()
  await page.getByRole('heading', { name: 'Saques' }).waitFor()
}

describe(`admin back office (${engine})`, () => {
  // One long journey with two axe runs: room for a loaded 2-core CI machine.
  it('finds the order and the account, verifies the key, sees the balance, confirms, approves and pays', {
    timeout: 90_000,
  }, async () => {
    const creator = await signupCreator(svc.api, 'Rita Ceramista')
    const buyer = `bia-${Date.now()}@example.com`
    const sale = await paidSale(svc, creator, { price: 150, body: { email: buyer } })
    await svc.api('PATCH', '/api/profile/pix', {
      session: creator.session,
      body: { pix_key: '529.982.247-25', pix_key_type: 'cpf' },
    })

    const browser = await openBrowser()
    try {
      const { page } = browser
      await page.goto(`${svc.url}/admin`)
      await page.getByLabel('E-mail').fill(ADMIN.ADMIN_EMAIL)
      await page.getByLabel('Senha').fill('senha-errada')
      await page.getByRole('button', { name: 'Entrar' }).click()
      await expect
        .poll(() => page.getByRole('alert').textContent())
        .toBe('E-mail ou senha incorretos.')
      await page.getByLabel('Senha').fill(ADMIN.ADMIN_PASSWORD)
      await page.getByRole('button', { name: 'Entrar' }).click()
      await page.getByRole('heading', { name: 'Saques' }).waitFor()

      // Search: the order by its buyer's e-mail, the account by its owner's.
      await page.getByLabel('Pedido: id ou e-mail do comprador').fill(buyer.toUpperCase())
      await page.getByRole('button', { name: 'Buscar pedidos' }).click()
      const order = page.getByRole('list', { name: 'Pedidos encontrados' }).getByRole('listitem')
      await expect.poll(() => order.textContent()).toContain(`Pedido ${sale.orderId}`)
      const found = await order.textContent()
      expect(found).toContain('R$ 150,00 · pago · Pix')
      expect(found).toContain('vendido por Rita Ceramista')
      expect(found).toContain(buyer)
      await page.getByLabel('Conta: nome, e-mail ou id').fill(creator.email)
      await page.getByRole('button', { name: 'Buscar contas' }).click()
      const account = page.getByRole('list', { name: 'Contas encontradas' }).getByRole('listitem')
      await expect.poll(() => account.textContent()).toContain(`id ${creator.accountId}`)
      await page.getByLabel('Pedido: id ou e-mail do comprador').fill('ninguem@example.com')
      await page.getByRole('button', { name: 'Buscar pedidos' }).click()
      await expect.poll(() => order.textContent()).toBe('Nada encontrado.')
      await screenshot(page, 'admin-search')

      const keys = page.getByRole('region', { name: 'Chaves Pix para verificar' })
      const key = keys.getByRole('listitem').filter({ hasText: creator.email })
      expect(await key.textContent()).toContain('52998224725')
      await key.getByRole('button', { name: 'Verificar' }).click()
      await expect.poll(() => key.count()).toBe(0)
      const message = page.getByRole('status')
      expect(await message.textContent()).toBe('Chave Pix de Rita Ceramista verificada.')

      expect((await withdraw(svc.api, creator, 100)).status).toBe(201)
      await page.reload()
      const history = page.getByRole('region', { name: 'Saques' })
      const row = history.getByRole('listitem').filter({ hasText: creator.email })
      await expect.poll(() => row.textContent()).toContain('R$ 100,00 · pendente')
      // What is left to the holder once this withdrawal is held: R$ 150,00 − R$ 100,00.
      expect(await row.textContent()).toContain('Saldo disponível de Rita Ceramista: R$ 50,00')

      // Approve: the confirmation shows amount, holder and key; "Cancelar" changes nothing.
      await row.getByRole('button', { name: 'Aprovar' }).click()
      const dialog = page.getByRole('dialog', { name: 'Aprovar saque?' })
      await dialog.waitFor()
      const facts = await dialog.textContent()
      expect(facts).toContain('R$ 100,00')
      expect(facts).toContain(`Rita Ceramista (${creator.email}, produtor)`)
      expect(facts).toContain('cpf: ***.982.247-**')
      await screenshot(page, 'admin-confirm-approve')
      for (const viewport of AXE_WIDTHS) {
        await page.setViewportSize(viewport)
        expect(await seriousAxeViolations(page), `dialog ${viewport.width}`).toEqual([])
      }
      await page.setViewportSize(AXE_WIDTHS[0])
      await dialog.getByRole('button', { name: 'Cancelar' }).click()
      expect(await dialog.isVisible()).toBe(false)
      expect(await row.textContent()).toContain('pendente')

      await row.getByRole('button', { name: 'Aprovar' }).click()
      await dialog.getByRole('button', { name: 'Aprovar' }).click()
      await expect
        .poll(() => message.textContent())
        .toBe('Saque de R$ 100,00 de Rita Ceramista aprovado.')
      await expect.poll(() => row.textContent()).toContain('R$ 100,00 · aprovado')

      await row.getByRole('button', { name: 'Pagar via Pix' }).click()
      const payDialog = page.getByRole('dialog', { name: 'Pagar saque via Pix?' })
      expect(await payDialog.textContent()).toContain('R$ 100,00')
      await payDialog.getByRole('button', { name: 'Pagar' }).click()
      await expect
        .poll(() => message.textContent())
        .toBe('Saque de R$ 100,00 de Rita Ceramista pago.')
      // Paid leaves the open list; the history shows it under "Pagos".
      await expect.poll(() => row.count()).toBe(0)
      await page.getByLabel('Mostrar').selectOption('paid')
      await expect.poll(() => row.textContent()).toContain('R$ 100,00 · pago')
      expect(await row.textContent()).not.toContain('Saldo disponível')
      expect(await balanceOf(svc.api, creator)).toMatchObject({
        available: 50,
        withdrawn_total: 100,
      })
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
        360,
      )
      await screenshot(page, 'admin-paid')

      // Refuse: a reason first (said beside the action), then the confirmation.
      await withdraw(svc.api, creator, 30)
      await page.getByLabel('Mostrar').selectOption('open')
      await expect.poll(() => row.textContent()).toContain('R$ 30,00 · pendente')
      await row.getByRole('button', { name: 'Recusar' }).click()
      await expect
        .poll(() => row.getByRole('alert').textContent())
        .toBe('Escreva o motivo antes de recusar.')
      await row.getByLabel('Motivo da recusa').fill('CPF da chave diferente do cadastro')
      await row.getByRole('button', { name: 'Recusar' }).click()
      await page
        .getByRole('dialog', { name: 'Recusar saque?' })
        .getByRole('button', { name: 'Recusar' })
        .click()
      await expect
        .poll(() => message.textContent())
        .toBe('Saque de R$ 30,00 de Rita Ceramista recusado; o valor voltou ao saldo.')
      await expect.poll(() => row.count()).toBe(0)
      const mine = await svc.api('GET', '/api/withdrawals', { session: creator.session })
      expect(mine.body.data[0]).toMatchObject({
        status: 'rejected',
        admin_note: 'CPF da chave diferente do cadastro',
      })
      expect(await balanceOf(svc.api, creator)).toMatchObject({ available: 50 })
      expect(browser.cspViolations).toEqual([])
    } finally {
      await browser.close('final-admin-journey')
    }
  })

  for (const viewport of AXE_WIDTHS)
    it(`has no serious axe violation with its lists filled, at ${viewport.width} px`, async () => {
      const creator = await signupCreator(svc.api, 'Téo Tecelão')
      await paidSale(svc, creator, { price: 80 })
      await svc.api('PATCH', '/api/profile/pix', {
        session: creator.session,
        body: { pix_key: `teo-${Date.now()}@example.com`, pix_key_type: 'email' },
      })
      const browser = await openBrowser(viewport)
      try {
        await logIn(browser.page)
        const { page } = browser
        await page.getByLabel('Conta: nome, e-mail ou id').fill('Tecelão')
        await page.getByRole('button', { name: 'Buscar contas' }).click()
        await page
          .getByRole('list', { name: 'Contas encontradas' })
          .getByRole('listitem')
          .first()
          .waitFor()
        await page.getByLabel('Mostrar').selectOption('')
        expect(await seriousAxeViolations(page)).toEqual([])
        await screenshot(page, `admin-axe-${viewport.width}`)
      } finally {
        await browser.close()
      }
    })

  it('a creator who is not the platform admin is turned away', async () => {
    const creator = await signupCreator(svc.api)
    const res = await fetch(`${svc.url}/admin`, { headers: { cookie: creator.session.cookie } })
    expect(res.status).toBe(403)
    expect(await res.text()).toContain('Esta área é só da administração da plataforma.')
    const anonymous = await fetch(`${svc.url}/admin`)
    expect(anonymous.status).toBe(401)
  })
})
