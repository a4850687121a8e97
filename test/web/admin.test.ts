// The platform admin's back office in Chromium: log in, verify a PIX key, approve and pay one
// withdrawal, refuse another with a reason; a creator is turned away.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { signupCreator } from '../setup/actors.ts'
import { openBrowser, screenshot } from '../setup/browser.ts'
import { paidSale } from '../setup/ledger.ts'
import { ADMIN, balanceOf, withdraw } from '../setup/payouts.ts'
import { engine, startTestService, type TestService } from '../setup/service.ts'

let svc: TestService
beforeAll(async () => {
  svc = await startTestService(ADMIN)
})
afterAll(() => svc?.stop())

describe(`admin back office (${engine})`, () => {
  it('verifies a key, approves and pays one withdrawal, refuses another with a reason', async () => {
    const creator = await signupCreator(svc.api, 'Rita Ceramista')
    await paidSale(svc, creator, { price: 150 })
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

      const keys = page.getByRole('region', { name: 'Chaves Pix para verificar' })
      const row = keys.getByRole('listitem').filter({ hasText: creator.email })
      await expect.poll(() => row.textContent()).toContain('52998224725')
      await screenshot(page, 'admin-key-to-verify')
      await row.getByRole('button', { name: 'Verificar' }).click()
      await expect.poll(() => row.count()).toBe(0)

      const first = await withdraw(svc.api, creator, 100)
      expect(first.status).toBe(201)
      await page.reload()
      const queue = page.getByRole('region', { name: 'Saques em aberto' })
      const withdrawal = queue.getByRole('listitem').filter({ hasText: creator.email })
      await expect.poll(() => withdrawal.textContent()).toContain('R$ 100,00')
      await withdrawal.getByRole('button', { name: 'Aprovar' }).click()
      await expect.poll(() => withdrawal.textContent()).toContain('aprovado')
      await withdrawal.getByRole('button', { name: 'Pagar via Pix' }).click()
      await expect.poll(() => withdrawal.count()).toBe(0)
      // Mobile-first: nothing wider than the 360 px screen.
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
        360,
      )
      expect(await balanceOf(svc.api, creator)).toMatchObject({
        available: 50,
        withdrawn_total: 100,
      })

      await withdraw(svc.api, creator, 50)
      await page.reload()
      await withdrawal.getByRole('button', { name: 'Recusar' }).click()
      await expect
        .poll(() => page.getByRole('alert').textContent())
        .toBe('Escreva o motivo antes de recusar.')
      await withdrawal.getByLabel('Motivo da recusa').fill('CPF da chave diferente do cadastro')
      await screenshot(page, 'admin-withdrawal-to-refuse')
      // Mobile-first: nothing wider than the 360 px screen.
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
        360,
      )
      await withdrawal.getByRole('button', { name: 'Recusar' }).click()
      await expect.poll(() => withdrawal.count()).toBe(0)
      const mine = await svc.api('GET', '/api/withdrawals', { session: creator.session })
      expect(mine.body.data[0]).toMatchObject({
        status: 'rejected',
        admin_note: 'CPF da chave diferente do cadastro',
      })
      expect(await balanceOf(svc.api, creator)).toMatchObject({ available: 50 })
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
