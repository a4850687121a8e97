// axe on the pages the journeys pass by without checking them: the forgotten-password and
// reset pages, a spent or forged e-mailed link, the checkout's success and unknown-product
// pages, the privacy page, the new-product form and the members' password page, at a phone's
// and a laptop's width. Each must have no serious or critical violation.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { signupCreator } from '../setup/actors.ts'
import { openBrowser } from '../setup/browser.ts'
import { createProduct } from '../setup/purchase.ts'
import { engine, startTestService, type TestService } from '../setup/service.ts'
import { AXE_WIDTHS, seriousAxeViolations } from './axe.ts'

let svc: TestService
beforeAll(async () => {
  svc = await startTestService()
})
afterAll(() => svc?.stop())

describe(`axe on the remaining pages (${engine})`, () => {
  for (const viewport of AXE_WIDTHS)
    it(`has no serious violation at ${viewport.width} px`, async () => {
      const creator = await signupCreator(svc.api)
      const key = await creator.key(['write:products'])
      const product = await createProduct(svc.api, key, { plans: [{ name: 'Único', price: 30 }] })
      const open = [
        '/senha/esqueci',
        '/senha/redefinir?token=forjado',
        '/members/login?token=forjado',
        `/checkout/${product.slug}/success`,
        '/checkout/nao-existe',
        '/privacidade',
      ]
      const loggedIn = ['/dashboard/produtos/novo', '/members/senha']
      const browser = await openBrowser(viewport)
      try {
        const { page } = browser
        for (const path of open) {
          await page.goto(`${svc.url}${path}`)
          expect(await seriousAxeViolations(page), path).toEqual([])
        }
        const [name, value] = creator.session.cookie.split(';')[0]!.split('=')
        await browser.context.addCookies([{ name: name!, value: value!, url: svc.url }])
        for (const path of loggedIn) {
          const response = await page.goto(`${svc.url}${path}`)
          expect(response?.status(), path).toBe(200)
          expect(await seriousAxeViolations(page), path).toEqual([])
        }
      } finally {
        await browser.close()
      }
    })
})
