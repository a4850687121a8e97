// The axe helper itself, on pages that exist today: the members log-in and the creator's
// log-in form, at both widths. A page with an unlabelled field proves the check can fail.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openBrowser } from '../setup/browser.ts'
import { engine, startTestService, type TestService } from '../setup/service.ts'
import { AXE_WIDTHS, seriousAxeViolations } from './axe.ts'

let svc: TestService
beforeAll(async () => {
  svc = await startTestService()
})
afterAll(() => svc?.stop())

describe(`axe on the log-in pages (${engine})`, () => {
  for (const viewport of AXE_WIDTHS)
    it(`has no serious violation at ${viewport.width} px`, async () => {
      const browser = await openBrowser(viewport)
      try {
        for (const path of ['/members', '/dashboard', '/admin']) {
          await browser.page.goto(`${svc.url}${path}`)
          expect(await seriousAxeViolations(browser.page), path).toEqual([])
        }
      } finally {
        await browser.close()
      }
    })

  it('reports an unlabelled field', async () => {
    const browser = await openBrowser()
    try {
      await browser.page.goto(`${svc.url}/members`)
      await browser.page.evaluate(() => {
        const input = document.createElement('input')
        input.type = 'text'
        document.querySelector('main')?.append(input)
      })
      expect((await seriousAxeViolations(browser.page)).join('\n')).toMatch(/label/)
    } finally {
      await browser.close()
    }
  })
})
