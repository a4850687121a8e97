// An invited affiliate follows the e-mailed link in Chromium, sets a password on /members/senha,
// and can then log in with e-mail and password.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { signupCreator } from '../setup/actors.ts'
import { openBrowser, screenshot } from '../setup/browser.ts'
import { createProduct } from '../setup/purchase.ts'
import { engine, startTestService, type TestService } from '../setup/service.ts'

let svc: TestService
beforeAll(async () => {
  svc = await startTestService()
})
afterAll(() => svc?.stop())

describe(`invitation → set a password (${engine})`, () => {
  it('the link logs the invited user in on the password page; the password then works', async () => {
    const key = await (await signupCreator(svc.api)).key(['write:products'])
    const product = await createProduct(svc.api, key)
    await svc.api('POST', `/api/v1/products/${product.id}/affiliates`, {
      key,
      body: { email: 'gil.convidado@example.com', commission_percent: 10 },
    })
    const [mail] = (await svc.api('GET', '/api/dev/emails?to=gil.convidado@example.com')).body.data
    const link = /(http\S+\/members\/login\?token=\S+)/.exec(mail.text)![1]!
    expect(link).toContain('&next=%2Fmembers%2Fsenha')

    const browser = await openBrowser()
    try {
      const { page } = browser
      await page.goto(link.replace(/^http:\/\/localhost:\d+/, svc.url))
      await page.getByRole('button', { name: 'Entrar na área de membros' }).click()
      await page.waitForURL((url) => url.pathname === '/members/senha')
      await page.getByLabel('Nova senha (pelo menos 8 caracteres)').fill('senha-do-gil-1')
      await page.getByLabel('Repita a senha').fill('senha-diferente')
      await page.getByRole('button', { name: 'Salvar senha' }).click()
      await expect.poll(() => page.locator('#erro').textContent()).toBe('As senhas não são iguais.')
      await page.getByLabel('Repita a senha').fill('senha-do-gil-1')
      await page.getByRole('button', { name: 'Salvar senha' }).click()
      await page.locator('#feito').waitFor({ state: 'visible' })
      await screenshot(page, 'members-password-set')
      // Used once: the same link no longer logs in.
      await page.goto(link.replace(/^http:\/\/localhost:\d+/, svc.url))
      expect(await page.locator('h1').textContent()).toBe('Link expirado')
    } finally {
      await browser.close()
    }
    const login = await svc.api('POST', '/api/auth/login', {
      body: { email: 'gil.convidado@example.com', password: 'senha-do-gil-1' },
    })
    expect(login.status).toBe(200)
  })

  it('changing an existing password needs the current one; no session, no page', async () => {
    const creator = await signupCreator(svc.api)
    const wrong = await svc.api('POST', '/api/auth/password', {
      session: creator.session,
      body: { password: 'nova-senha-123', current_password: 'errada' },
    })
    expect(wrong.status).toBe(403)
    expect(wrong.body).toEqual({ error: 'Senha atual incorreta' })
    const short = await svc.api('POST', '/api/auth/password', {
      session: creator.session,
      body: { password: 'curta' },
    })
    expect(short.body.details[0].message).toBe('A senha precisa ter pelo menos 8 caracteres')
    const ok = await svc.api('POST', '/api/auth/password', {
      session: creator.session,
      body: { password: 'nova-senha-123', current_password: 'senha-forte-123' },
    })
    expect(ok.body).toEqual({ password_set: true })
    expect(
      (await svc.api('POST', '/api/auth/password', { body: { password: 'x'.repeat(9) } })).status,
    ).toBe(401)
    const anonymous = await fetch(`${svc.url}/members/senha`)
    expect(anonymous.status).toBe(401)
  })
})
