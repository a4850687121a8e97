// Steps the dashboard's browser tests share: log a creator in at a dashboard page, answer the
// confirmations, and the checks every page passes (axe at both widths, nothing wider than a
// 360 px phone).
import type { Dialog, Page } from 'playwright-core'
import { expect } from 'vitest'
import type { Creator } from '../setup/actors.ts'
import { openBrowser } from '../setup/browser.ts'
import { scrollsSideways } from './a11y.ts'
import { AXE_WIDTHS, seriousAxeViolations } from './axe.ts'

/** Opens `url` (a dashboard page), answered with the log-in form, and logs the creator in. */
export async function logIn(page: Page, url: string, creator: Creator): Promise<void> {
  const response = await page.goto(url)
  expect(response?.status()).toBe(401)
  await page.getByLabel('E-mail').fill(creator.email)
  await page.getByLabel('Senha').fill('senha-forte-123')
  await page.getByRole('button', { name: 'Entrar' }).click()
  await page.getByRole('navigation', { name: 'Seções do painel' }).waitFor()
}

/** The page as it is now, at both axe widths: no serious violation, no sideways scroll. */
export async function checkPage(page: Page): Promise<void> {
  for (const size of AXE_WIDTHS) {
    await page.setViewportSize(size)
    expect(await seriousAxeViolations(page), `${page.url()} at ${size.width}`).toEqual([])
  }
  await page.setViewportSize(AXE_WIDTHS[0])
  expect(await scrollsSideways(page), page.url()).toBe(false)
}

/** The page at both axe widths, each in a fresh browser logged in afresh. */
export async function checkPageAtBothWidths(url: string, creator: Creator): Promise<void> {
  for (const viewport of AXE_WIDTHS) {
    const browser = await openBrowser(viewport)
    try {
      await logIn(browser.page, url, creator)
      expect(await seriousAxeViolations(browser.page), `${url} at ${viewport.width}`).toEqual([])
      expect(await scrollsSideways(browser.page), `${url} at ${viewport.width}`).toBe(false)
    } finally {
      await browser.close()
    }
  }
}

/** Answers every confirmation with `accept` (true unless a test sets it); keeps the questions. */
export function confirmations(page: Page) {
  const answer = { accept: true, asked: [] as string[] }
  page.on('dialog', (dialog) => {
    answer.asked.push(dialog.message())
    void (answer.accept ? dialog.accept() : dialog.dismiss())
  })
  return answer
}

/** Answers the next confirmation only, and returns its question. */
export function nextDialog(page: Page, answer: 'accept' | 'dismiss'): Promise<string> {
  return new Promise((resolve) => {
    page.once('dialog', async (dialog: Dialog) => {
      resolve(dialog.message())
      await (answer === 'accept' ? dialog.accept() : dialog.dismiss())
    })
  })
}
