// /docs in Chromium: every resource the page loads comes from our own origin (no fonts or
// scripts from other hosts), every operation's summary from /openapi.json appears in its card,
// and axe finds no serious violation at 360 and 1280 px.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openBrowser, screenshot } from '../setup/browser.ts'
import { engine, startTestService, type TestService } from '../setup/service.ts'
import { AXE_WIDTHS, seriousAxeViolations } from './axe.ts'

let svc: TestService
beforeAll(async () => {
  svc = await startTestService()
})
afterAll(() => svc?.stop())

type Operations = Record<string, Record<string, { operationId: string; summary?: string }>>

describe(`/docs in Chromium (${engine})`, () => {
  // axe reads every node of a long page, twice: generous on a shared 2-core machine.
  it('loads nothing from another host, and shows each operation with its summary from the OpenAPI document', {
    timeout: 120_000,
  }, async () => {
    const doc = (await (await fetch(`${svc.url}/openapi.json`)).json()) as { paths: Operations }
    const operations = Object.values(doc.paths).flatMap((byMethod) => Object.values(byMethod))
    expect(operations.length).toBeGreaterThan(50)

    const browser = await openBrowser({ width: 1280, height: 800 })
    try {
      const { page } = browser
      const requested: string[] = []
      page.on('request', (r) => requested.push(r.url()))
      const res = await page.goto(`${svc.url}/docs`)
      expect(res?.status()).toBe(200)
      await page.waitForLoadState('load')
      const origin = new URL(svc.url).origin
      expect(requested.length).toBeGreaterThan(0)
      expect(requested.filter((url) => new URL(url).origin !== origin)).toEqual([])
      // Nor does anything in the page point a resource (font, script, style, image) elsewhere.
      const foreign = await page.evaluate((own) => {
        const urls = [
          ...[...document.querySelectorAll('script[src], img[src], iframe[src]')].map(
            (el) => (el as HTMLImageElement).src,
          ),
          ...[...document.querySelectorAll('link[href]')].map((el) => (el as HTMLLinkElement).href),
          ...performance.getEntriesByType('resource').map((e) => e.name),
        ]
        const css = [...document.styleSheets].flatMap((sheet) =>
          [...sheet.cssRules].map((rule) => rule.cssText),
        )
        return [
          ...urls.filter((url) => new URL(url).origin !== own),
          ...css.filter((text) => /@import|@font-face|url\(/i.test(text)),
        ]
      }, origin)
      expect(foreign).toEqual([])
      expect(await page.locator('script').count()).toBe(0)

      // Each operation's card, by its operationId, leads with the document's summary.
      const shown = await page.evaluate(() =>
        Object.fromEntries(
          [...document.querySelectorAll('article[id]')].map((card) => [
            card.id,
            card.querySelector('strong')?.textContent ?? '',
          ]),
        ),
      )
      for (const op of operations) {
        expect(op.summary, op.operationId).toBeTruthy()
        expect(shown[op.operationId], op.operationId).toBe(op.summary)
      }
      for (const viewport of AXE_WIDTHS) {
        await page.setViewportSize(viewport)
        expect(await seriousAxeViolations(page), `${viewport.width} px`).toEqual([])
      }
      // The top of the page only: capturing all of it (every operation at 1280 px) took over
      // 30 s once in CI, and the picture is for people, not an assertion.
      await screenshot(page, 'docs', false)
    } finally {
      await browser.close()
    }
  })
})
