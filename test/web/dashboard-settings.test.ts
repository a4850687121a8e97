// The sale notification setting in the dashboard: on by default (the owner gets the e-mail),
// turned off in the page (the API reads false, the next sale sends none), axe at both widths.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { WINDOW_MS } from '../../src/modules/sale-notices/service.ts'
import { signupCreator } from '../setup/actors.ts'
import { openBrowser } from '../setup/browser.ts'
import { paidSale } from '../setup/ledger.ts'
import { engine, startTestService, type TestService } from '../setup/service.ts'
import { checkPageAtBothWidths, logIn } from './dashboard-steps.ts'

let svc: TestService
beforeAll(async () => {
  svc = await startTestService()
})
afterAll(() => svc?.stop())

const saleMails = async (to: string) =>
  (await svc.api('GET', `/api/dev/emails?to=${encodeURIComponent(to)}`)).body.data.filter(
    (m: { subject: string }) => m.subject.startsWith('Venda aprovada'),
  ).length

describe(`dashboard settings (${engine})`, () => {
  it('sale notifications: on by default, turned off in the page, then no sale e-mail', async () => {
    const creator = await signupCreator(svc.api, 'Lia Tecelã')
    const key = await creator.key(['write:products'])
    await paidSale(svc, creator, { price: 80, key })
    await expect.poll(() => saleMails(creator.email)).toBe(1)

    const browser = await openBrowser()
    try {
      const { page } = browser
      await logIn(page, `${svc.url}/dashboard/configuracoes`, creator)
      const box = page.getByLabel('Receber e-mails das vendas aprovadas')
      expect(await box.isChecked()).toBe(true)
      await box.uncheck()
      await page.getByRole('button', { name: 'Salvar' }).click()
      await expect.poll(() => page.locator('#aviso').textContent()).toBe('Configurações salvas.')
      expect(await page.getByLabel('Receber e-mails das vendas aprovadas').isChecked()).toBe(false)
    } finally {
      await browser.close('dashboard-settings')
    }
    const settings = await svc.api('GET', `/api/accounts/${creator.accountId}/settings`, {
      session: creator.session,
    })
    expect(settings.body.data).toEqual({ sale_notifications: false })
    // After a quiet minute: were it on, this sale would be told at once (sale-notices/).
    await svc.deps.clock.advance(WINDOW_MS)
    await paidSale(svc, creator, { price: 90, key })
    // Mails are queued in the paying transaction, so the second sale's would be there by now.
    expect(await saleMails(creator.email)).toBe(1)
    await checkPageAtBothWidths(`${svc.url}/dashboard/configuracoes`, creator)
  }, 120_000)
})
