// Real Chromium (Debian's) driven by playwright-core, one fresh context (profile) per test.
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core'

/** Kept with the test output (gitignored), one folder per engine so both runs stay side by side. */
export const SCREENSHOTS = join(
  'test-results',
  'screenshots',
  process.env.TEST_DATABASE_URL || process.env.DATABASE_URL ? 'postgres' : 'pglite',
)

export interface TestBrowser {
  context: BrowserContext
  page: Page
  /** CSP refusals reported so far; a test that expects one removes it before closing. */
  cspViolations: string[]
  /**
   * Closes the context (the process's Chromium stays for the next; closeBrowser ends it); with
   * a name, first keeps a screenshot of the final state (pass or fail). Fails if any page
   * reported a Content-Security-Policy violation meanwhile.
   */
  close(finalScreenshot?: string): Promise<void>
}

/** One Chromium per test worker process, launched on first use; playwright ends it on exit. */
let launched: Promise<Browser> | undefined

export async function openBrowser(
  viewport: { width: number; height: number } = { width: 360, height: 800 },
): Promise<TestBrowser> {
  launched ??= chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    headless: true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  })
  // A new context is a fresh profile (cookies, storage, permissions) at a fraction of a launch.
  const context = await (await launched).newContext({ viewport, locale: 'pt-BR' })
  const page = await context.newPage()
  // Chromium reports every CSP refusal ("Refused to execute inline script because it violates
  // the following Content Security Policy directive…") as a console error.
  const cspViolations: string[] = []
  context.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text()))
      cspViolations.push(`${message.page()?.url()}: ${message.text()}`)
  })
  return {
    context,
    page,
    cspViolations,
    async close(finalScreenshot) {
      if (finalScreenshot) await screenshot(page, finalScreenshot).catch(() => {})
      await context.close()
      if (cspViolations.length) throw new Error(`CSP violations:\n${cspViolations.join('\n')}`)
    },
  }
}

/** Ends this process's Chromium, if it launched one: a script (the bench) must, or it never exits. */
export async function closeBrowser(): Promise<void> {
  const browser = await launched
  launched = undefined
  await browser?.close()
}

/** A file-name-safe version of a test's name. */
export const screenshotName = (testName: string) =>
  testName
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^\w]+/g, '-')
    .replace(/^-|-$/g, '')
    .toLowerCase()
    .slice(0, 80)

/** `fullPage: false` for very long pages, whose whole capture can outlast the test's time. */
export async function screenshot(page: Page, name: string, fullPage = true): Promise<void> {
  mkdirSync(SCREENSHOTS, { recursive: true })
  await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage })
}
