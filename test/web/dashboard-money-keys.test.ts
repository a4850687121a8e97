import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { SCOPES } from '../../src/modules/accounts/schema.ts'
import { READ_SCOPES, WRITE_SCOPES } from '../../src/web/dashboard/api-keys/scopes.ts'
import { signupCreator } from '../setup/actors.ts'
import { openBrowser } from '../setup/browser.ts'
import { engine, startTestService, type TestService } from '../setup/service.ts'
import { checkPageAtBothWidths, logIn, nextDialog } from './dashboard-steps.ts'

// Waits for what the page or the workers will show (not a timing assertion: the bound is generous).
const WAIT = { timeout: 30_000, interval: 100 }

let svc: TestService
beforeAll(async () => {
  svc = await startTestService()
})
afterAll(() => svc?.stop())

describe(`dashboard: API keys (${engine})`, () => {
  it('words every scope once, in its group', () => {
    const listed = [...READ_SCOPES, ...WRITE_SCOPES].map(([scope]) => scope)
    expect([...listed].sort()).toEqual([...SCOPES].sort())
    expect(READ_SCOPES.every(([scope]) => scope.startsWith('read:'))).toBe(true)
  })

  it('creates a key with scopes in words, shown once, that works, and revokes it', {
    timeout: 180_000,
  }, async () => {
    const creator = await signupCreator(svc.api, 'Téo Luthier')
    const browser = await openBrowser()
    try {
      const { page } = browser
      await logIn(page, `${svc.url}/dashboard/chaves`, creator)
      const keys = page.getByRole('region', { name: 'Chaves ativas' })
      const create = page.getByRole('region', { name: 'Nova chave' })
      expect(await keys.textContent()).toContain('Nenhuma chave ainda')

      await create.getByLabel('Nome da chave').fill('Integração ERP')
      await create.getByRole('button', { name: 'Criar chave' }).click()
      await expect
        .poll(() => create.getByRole('alert').textContent(), WAIT)
        .toBe('Confira: Permissões.')
      await create.getByRole('button', { name: 'Marcar todas de leitura' }).click()
      const read = create.getByRole('group', { name: 'Ler' }).getByRole('checkbox')
      expect(await read.count()).toBe(READ_SCOPES.length)
      for (const box of await read.all()) expect(await box.isChecked()).toBe(true)
      const change = create.getByRole('group', { name: 'Alterar' }).getByRole('checkbox')
      for (const box of await change.all()) expect(await box.isChecked()).toBe(false)
      await create.getByLabel('Reembolsar pedidos').check()
      await create.getByRole('button', { name: 'Criar chave' }).click()
      const shown = create.getByRole('status')
      await shown.waitFor({ state: 'visible' })
      const key = (await shown.locator('code').textContent())!
      expect(key).toMatch(/^vt_/)
      expect((await svc.api('GET', '/api/v1/orders', { key })).status).toBe(200)
      expect((await svc.api('GET', '/api/v1/webhooks', { key })).status).toBe(200)
      const write = await svc.api('POST', '/api/v1/webhooks', {
        key,
        body: { url: 'https://example.com/hooks', events: ['order.paid'] },
      })
      expect(write.status).toBe(403)

      await page.reload()
      expect(await page.content()).not.toContain(key)
      const item = keys.getByRole('listitem').filter({ hasText: 'Integração ERP' })
      const text = await item.first().textContent()
      expect(text).toContain('Ver pedidos')
      expect(text).toContain('read:orders')
      expect(text).toContain('Reembolsar pedidos')
      expect(text).not.toContain('Solicitar saques')
      expect(text).toContain('usada em')

      await checkPageAtBothWidths(`${svc.url}/dashboard/chaves`, creator)

      const revoke = keys.getByRole('button', { name: 'Revogar Integração ERP' })
      const kept = nextDialog(page, 'dismiss')
      await revoke.click()
      expect(await kept).toContain('Revogar a chave Integração ERP?')
      expect(await revoke.count()).toBe(1)
      expect((await svc.api('GET', '/api/v1/orders', { key })).status).toBe(200)
      const gone = nextDialog(page, 'accept')
      await revoke.click()
      await gone
      await expect.poll(() => revoke.count(), WAIT).toBe(0)
      expect(await keys.textContent()).toContain('Nenhuma chave ainda')
      expect((await svc.api('GET', '/api/v1/orders', { key })).status).toBe(401)
    } finally {
      await browser.close('dashboard-money-keys')
    }
  })
})
