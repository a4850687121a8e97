// The logged-out members area in Chromium at 360 px: ask for a log-in link, open it, press the
// button; or log in with e-mail and password.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { signupCreator } from '../setup/actors.ts'
import { openBrowser, screenshot } from '../setup/browser.ts'
import { engine, startTestService, type TestService } from '../setup/service.ts'
import { scrollsSideways, unnamedControls } from './a11y.ts'

let svc: TestService
beforeAll(async () => {
  svc = await startTestService()
})
afterAll(() => svc?.stop())

describe(`members area, logged out (${engine})`, () => {
  it('a log-in link asked for on the page logs in through its button', async () => {
    const creator = await signupCreator(svc.api)
    const browser = await openBrowser()
    try {
      const { page } = browser
      await page.goto(`${svc.url}/members`)
      expect(await scrollsSideways(page)).toBe(false)
      expect(await unnamedControls(page)).toEqual([])
      const form = page.locator('#link')
      await form.getByLabel('E-mail').fill(creator.email)
      await form.getByRole('button', { name: 'Receber link de acesso' }).click()
      // Waits for the page's answer (Playwright's wait, not expect.poll's one second).
      await page
        .getByRole('status')
        .getByText('Se este e-mail tiver uma conta, o link chega em instantes', { exact: false })
        .waitFor()
      await screenshot(page, 'members-link-asked')

      const [mail] = (await svc.api('GET', `/api/dev/emails?to=${creator.email}`)).body.data
      const link = /(http\S+\/members\/login\?token=\S+)/.exec(mail.text)![1]!
      await page.goto(link.replace(/^http:\/\/localhost:\d+/, svc.url))
      await page.getByRole('button', { name: 'Entrar na área de membros' }).click()
      await page.waitForURL((url) => url.pathname === '/members')
      await page.getByRole('heading', { name: 'Meus produtos' }).waitFor()
    } finally {
      await browser.close('members-link')
    }
  })

  it('a user with a password logs in on the page', async () => {
    const creator = await signupCreator(svc.api)
    const browser = await openBrowser()
    try {
      const { page } = browser
      await page.goto(`${svc.url}/members`)
      const login = page.locator('#entrar')
      await login.getByLabel('E-mail').fill(creator.email)
      await login.getByLabel('Senha').fill('senha-forte-123')
      await login.getByRole('button', { name: 'Entrar' }).click()
      // The log-in hashes the password (slow on a loaded machine), then the page reloads.
      await page.getByRole('heading', { name: 'Meus produtos' }).waitFor()
    } finally {
      await browser.close('members-password')
    }
  })
})
