// The back office with PAYOUT_PROVIDER=manual: the admin sends the PIX by hand, so the row and
// the confirmation show the key in full, "Marcar como pago" needs the end-to-end id, and the
// API's refusal of a malformed one is said beside the action.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { signupCreator } from '../setup/actors.ts'
import { openBrowser, screenshot } from '../setup/browser.ts'
import { paidSale } from '../setup/ledger.ts'
import { ADMIN, adminSession, review, verifiedPixKey, withdraw } from '../setup/payouts.ts'
import { engine, startTestService, type TestService } from '../setup/service.ts'

let svc: TestService
beforeAll(async () => {
  svc = await startTestService({ ...ADMIN, PAYOUT_PROVIDER: 'manual' })
})
afterAll(() => svc?.stop())

describe(`admin back office, manual payouts (${engine})`, () => {
  it('asks for the end-to-end id, shows the full key in the confirmation, and records the payment', async () => {
    const creator = await signupCreator(svc.api, 'Nina Bordadeira')
    await paidSale(svc, creator, { price: 90 })
    const admin = await adminSession(svc.api)
    await verifiedPixKey(svc.api, admin, creator)
    const requested = await withdraw(svc.api, creator, 40)
    expect(requested.status).toBe(201)
    expect((await review(svc.api, admin, requested.body.withdrawal_id, 'approve')).status).toBe(200)

    const browser = await openBrowser()
    try {
      const { page } = browser
      await page.goto(`${svc.url}/admin`)
      await page.getByLabel('E-mail').fill(ADMIN.ADMIN_EMAIL)
      await page.getByLabel('Senha').fill(ADMIN.ADMIN_PASSWORD)
      await page.getByRole('button', { name: 'Entrar' }).click()
      const row = page
        .getByRole('region', { name: 'Saques' })
        .getByRole('listitem')
        .filter({ hasText: creator.email })
      await expect.poll(() => row.textContent()).toContain('R$ 40,00 · aprovado')
      expect(await row.textContent()).toContain('Pix cpf: 52998224725')
      expect(await row.textContent()).toContain('Saldo disponível de Nina Bordadeira: R$ 50,00')

      await row.getByRole('button', { name: 'Marcar como pago' }).click()
      await expect
        .poll(() => row.getByRole('alert').textContent())
        .toBe('Informe o end-to-end id do Pix enviado.')

      const field = row.getByLabel('End-to-end id do Pix enviado')
      await field.fill('E123')
      await row.getByRole('button', { name: 'Marcar como pago' }).click()
      const dialog = page.getByRole('dialog', { name: 'Marcar saque como pago?' })
      expect(await dialog.textContent()).toContain('cpf: 52998224725')
      await dialog.getByRole('button', { name: 'Marcar' }).click()
      // The API refuses the malformed id; its message goes beside the action, the row stays.
      await expect
        .poll(() => row.getByRole('alert').textContent())
        .toMatch(/^end_to_end_id inválido/)
      expect(await row.textContent()).toContain('aprovado')

      const e2e = 'E12345678202611250100Ab3De5Fg7Hi'
      await field.fill(e2e)
      await row.getByRole('button', { name: 'Marcar como pago' }).click()
      await dialog.getByRole('button', { name: 'Marcar' }).click()
      await expect
        .poll(() => page.getByRole('status').textContent())
        .toBe('Saque de R$ 40,00 de Nina Bordadeira pago.')
      await expect.poll(() => row.count()).toBe(0)
      await page.getByLabel('Mostrar').selectOption('paid')
      await expect.poll(() => row.textContent()).toContain(`End-to-end: ${e2e}`)
      await screenshot(page, 'admin-manual-paid')
    } finally {
      await browser.close()
    }
  })
})
