// The creator's way in, in Chromium: sign up → dashboard; "Sair" → log in again on /entrar;
// "Esqueci minha senha" → the e-mailed link → a new password that logs in (the old one no
// longer does). Every page passes axe at 360 and 1280 px; `next` never leaves our site.
import { randomBytes } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { signupCreator } from '../setup/actors.ts'
import { openBrowser } from '../setup/browser.ts'
import { engine, startTestService, type TestService } from '../setup/service.ts'
import { scrollsSideways } from './a11y.ts'
import { AXE_WIDTHS, seriousAxeViolations } from './axe.ts'

let svc: TestService
beforeAll(async () => {
  svc = await startTestService()
})
afterAll(() => svc?.stop())

const local = (link: string) => link.replace(/^http:\/\/localhost:\d+/, svc.url)

async function lastMailTo(email: string) {
  const { data } = (await svc.api('GET', `/api/dev/emails?to=${email}`)).body
  return data[0] as { subject: string; text: string }
}

describe(`creator sign-up, log-in, log-out and reset pages (${engine})`, () => {
  it('signs up in the browser, lands on the dashboard, logs out and logs in again', async () => {
    const email = `nova-${randomBytes(4).toString('hex')}@example.com`
    const browser = await openBrowser()
    try {
      const { page } = browser
      await page.goto(`${svc.url}/entrar`)
      await page.getByRole('link', { name: 'Criar conta de produtor' }).click()
      await page.waitForURL((url) => url.pathname === '/cadastro')
      expect(await scrollsSideways(page)).toBe(false)
      const form = page.locator('#cadastro')
      await form.getByLabel('Seu nome').fill('Nina Produtora')
      await form.getByLabel('E-mail').fill(email)
      await form.getByLabel('Senha (pelo menos 8 caracteres)').fill('senha-da-nina-1')
      await form.getByRole('button', { name: 'Criar conta' }).click()
      await page.waitForURL((url) => url.pathname === '/dashboard')

      // "Sair" (LogoutButton) on a logged-in page, then the log-in form again.
      await page.goto(`${svc.url}/members`)
      const cookies = await browser.context.cookies()
      const cookie = cookies.map((c) => `${c.name}=${c.value}`).join('; ')
      const csrf = cookies.find((c) => c.name === 'csrf_token')!.value
      expect((await svc.api('GET', '/api/me', { session: { cookie, csrf } })).status).toBe(200)
      await page.getByRole('button', { name: 'Sair' }).click()
      await page.waitForURL((url) => url.pathname === '/members')
      await page.getByRole('heading', { name: 'Receber link de acesso' }).waitFor()
      // The session itself ended, not only the cookie in this browser.
      expect((await svc.api('GET', '/api/me', { session: { cookie, csrf } })).status).toBe(401)

      await page.goto(`${svc.url}/entrar`)
      const login = page.locator('#entrar')
      await login.getByLabel('E-mail').fill(email)
      await login.getByLabel('Senha').fill('senha-errada-1')
      await login.getByRole('button', { name: 'Entrar' }).click()
      await expect
        .poll(() => login.getByRole('alert').textContent())
        .toBe('E-mail ou senha incorretos.')
      await login.getByLabel('Senha').fill('senha-da-nina-1')
      await login.getByRole('button', { name: 'Entrar' }).click()
      await page.waitForURL((url) => url.pathname === '/dashboard')
    } finally {
      await browser.close('auth-signup-logout-login')
    }
  })

  it('an e-mail already signed up is shown beside the form, with a way to log in', async () => {
    const creator = await signupCreator(svc.api)
    const browser = await openBrowser()
    try {
      const { page } = browser
      await page.goto(`${svc.url}/cadastro`)
      const form = page.locator('#cadastro')
      await form.getByLabel('Seu nome').fill('De Novo')
      await form.getByLabel('E-mail').fill(creator.email)
      await form.getByLabel('Senha (pelo menos 8 caracteres)').fill('outra-senha-1')
      await form.getByRole('button', { name: 'Criar conta' }).click()
      const alert = form.getByRole('alert')
      await alert.getByText('Este e-mail já tem uma conta.', { exact: false }).waitFor()
      await alert.getByRole('link', { name: 'Entrar com este e-mail' }).click()
      await page.waitForURL((url) => url.pathname === '/entrar')
    } finally {
      await browser.close('auth-signup-taken')
    }
  })

  it('resets the password through the e-mailed link; the new one logs in, the old one not', async () => {
    const creator = await signupCreator(svc.api)
    const browser = await openBrowser()
    try {
      const { page } = browser
      await page.goto(`${svc.url}/entrar`)
      await page.getByRole('link', { name: 'Esqueci minha senha' }).click()
      await page.waitForURL((url) => url.pathname === '/senha/esqueci')
      await page.getByLabel('E-mail').fill(creator.email)
      await page.getByRole('button', { name: 'Enviar link' }).click()
      await page
        .getByRole('status')
        .getByText('Se este e-mail tiver uma conta', { exact: false })
        .waitFor()

      const mail = await lastMailTo(creator.email)
      expect(mail.subject).toBe('Redefinição de senha da Vitrine')
      const link = /(http\S+\/senha\/redefinir\?token=\S+)/.exec(mail.text)![1]!
      // Opening the link spends nothing (mail scanners open links): it opens twice.
      expect((await fetch(local(link))).status).toBe(200)
      await page.goto(local(link))
      await page.getByLabel('Nova senha (pelo menos 8 caracteres)').fill('senha-nova-123')
      await page.getByLabel('Repita a senha').fill('senha-nova-123')
      await page.getByRole('button', { name: 'Salvar senha' }).click()
      await page.getByText('Senha redefinida.', { exact: false }).waitFor()
      // Spent: the link now says so, and the session the reset opened works.
      expect((await fetch(local(link))).status).toBe(410)
      // Every earlier session ended with the reset.
      expect((await svc.api('GET', '/api/me', { session: creator.session })).status).toBe(401)
    } finally {
      await browser.close('auth-password-reset')
    }
    const old = await svc.api('POST', '/api/auth/login', {
      body: { email: creator.email, password: 'senha-forte-123' },
    })
    expect(old.status).toBe(401)

    const again = await openBrowser()
    try {
      const { page } = again
      await page.goto(`${svc.url}/entrar?next=/members`)
      const login = page.locator('#entrar')
      await login.getByLabel('E-mail').fill(creator.email)
      await login.getByLabel('Senha').fill('senha-nova-123')
      await login.getByRole('button', { name: 'Entrar' }).click()
      await page.waitForURL((url) => url.pathname === '/members')
      await page.getByRole('heading', { name: 'Meus produtos' }).waitFor()
    } finally {
      await again.close('auth-login-after-reset')
    }
  })

  it('asking for a reset answers the same for an unknown e-mail and sends nothing', async () => {
    const res = await svc.api('POST', '/api/auth/password-reset', {
      body: { email: 'ninguem-aqui@example.com' },
    })
    expect(res.status).toBe(202)
    const { data } = (await svc.api('GET', '/api/dev/emails?to=ninguem-aqui@example.com')).body
    expect(data).toEqual([])
    const bad = await svc.api('POST', '/api/auth/password-reset/complete', {
      body: { token: 'x'.repeat(43), password: 'senha-nova-123' },
    })
    expect(bad.status).toBe(400)
  })

  it('`next` on /entrar is one of our own pages, never another site', async () => {
    const nextOf = async (next: string) => {
      const html = await (await fetch(`${svc.url}/entrar?next=${encodeURIComponent(next)}`)).text()
      return /data-next="([^"]*)"/.exec(html)?.[1]
    }
    expect(await nextOf('/members')).toBe('/members')
    expect(await nextOf('/admin')).toBe('/admin')
    for (const evil of [
      '//evil.example/x',
      'https://evil.example',
      '/\\evil.example',
      '/%2F%2Fevil',
    ])
      expect(await nextOf(evil), evil).toBe('/dashboard')
  })

  it("the dashboard's log-in form links to sign-up and to the password reset", async () => {
    const html = await (await fetch(`${svc.url}/dashboard`)).text()
    expect(html).toContain('href="/cadastro"')
    expect(html).toContain('href="/senha/esqueci"')
  })

  for (const viewport of AXE_WIDTHS)
    it(`/cadastro, /entrar and /senha/esqueci pass axe at ${viewport.width} px`, async () => {
      const browser = await openBrowser(viewport)
      try {
        for (const path of ['/cadastro', '/entrar', '/senha/esqueci', '/senha/redefinir?token=x']) {
          await browser.page.goto(`${svc.url}${path}`)
          expect(await seriousAxeViolations(browser.page), path).toEqual([])
        }
      } finally {
        await browser.close(`auth-pages-axe-${viewport.width}`)
      }
    })
})
