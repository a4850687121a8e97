// axe-core run inside a page (injected through the DevTools protocol, which the page's CSP does
// not govern): the serious and critical violations, as short lines a failing test prints.
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import type { Page } from 'playwright-core'

const AXE_SOURCE = readFileSync(
  createRequire(import.meta.url).resolve('axe-core/axe.min.js'),
  'utf8',
)

interface AxeResult {
  violations: { id: string; impact: string | null; help: string; nodes: { target: unknown[] }[] }[]
}

/** Serious or critical axe violations on the page as it is now; [] when there are none. */
export async function seriousAxeViolations(page: Page): Promise<string[]> {
  await page.evaluate(AXE_SOURCE)
  const result = (await page.evaluate(() =>
    (window as unknown as { axe: { run(): Promise<unknown> } }).axe.run(),
  )) as AxeResult
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map(
      (v) =>
        `${v.impact} ${v.id}: ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`,
    )
}

/** Both widths the pages are checked at: a phone and a laptop. */
export const AXE_WIDTHS = [
  { width: 360, height: 800 },
  { width: 1280, height: 800 },
] as const
