// Accessibility checks run inside the page: what a screen-reader or low-vision buyer depends on.
import type { Page } from 'playwright-core'

/** True when the page is wider than the viewport (a horizontal scroll bar at 360 px). */
export const scrollsSideways = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth)

/** Visible form controls without an accessible name (label, aria-label(ledby) or button text). */
export const unnamedControls = (page: Page) =>
  page.evaluate(() =>
    [...document.querySelectorAll('input:not([type=hidden]), select, textarea, button')]
      .filter((el) => el.getClientRects().length > 0)
      .filter((el) => {
        const control = el as HTMLInputElement
        const named =
          (control.labels?.length ?? 0) > 0 ||
          el.getAttribute('aria-label') ||
          el.getAttribute('aria-labelledby') ||
          (el.tagName === 'BUTTON' && el.textContent?.trim())
        return !named
      })
      .map((el) => el.outerHTML.slice(0, 120)),
  )

/**
 * Visible text under WCAG AA contrast (4.5:1, 3:1 for large text) and text-field borders under
 * 3:1 (WCAG 1.4.11), against the nearest opaque background.
 */
export const contrastFailures = (page: Page) =>
  page.evaluate(() => {
    type Rgb = [number, number, number, number]
    const parse = (color: string): Rgb => {
      const parts = /rgba?\(([^)]+)\)/
        .exec(color)?.[1]
        ?.split(/[\s,/]+/)
        .filter(Boolean)
      const [r = 0, g = 0, b = 0, a = 1] = (parts ?? []).map(Number)
      return [r, g, b, a]
    }
    const luminance = ([r, g, b]: Rgb) => {
      const f = (v: number) => {
        const c = v / 255
        return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4
      }
      return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b)
    }
    const ratio = (a: Rgb, b: Rgb) => {
      const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number]
      return (hi + 0.05) / (lo + 0.05)
    }
    const background = (el: Element | null): Rgb => {
      for (let e = el; e; e = e.parentElement) {
        const color = parse(getComputedStyle(e).backgroundColor)
        if (color[3] > 0.5) return color
      }
      return [255, 255, 255, 1]
    }
    const failures: string[] = []
    for (const el of document.querySelectorAll('body *')) {
      if (el.getClientRects().length === 0 || (el as HTMLButtonElement).disabled) continue
      const style = getComputedStyle(el)
      const hasText = [...el.childNodes].some(
        (n) => n.nodeType === Node.TEXT_NODE && n.textContent?.trim(),
      )
      const size = Number.parseFloat(style.fontSize)
      const large = size >= 24 || (size >= 18.66 && Number(style.fontWeight) >= 700)
      const text = ratio(parse(style.color), background(el))
      if (hasText && text < (large ? 3 : 4.5))
        failures.push(`text ${text.toFixed(2)}: ${el.outerHTML.slice(0, 80)}`)
      if (el.matches('input:not([type=radio]):not([type=checkbox]), select, textarea')) {
        const border = ratio(parse(style.borderTopColor), background(el.parentElement))
        if (border < 3) failures.push(`border ${border.toFixed(2)}: ${el.outerHTML.slice(0, 80)}`)
      }
    }
    return failures
  })

/** The focused element shows a visible focus ring (keyboard focus). */
export const focusRingShown = (page: Page) =>
  page.evaluate(() => {
    const el = document.activeElement
    if (!el || el === document.body) return false
    const style = getComputedStyle(el)
    // An opaque ring: a faint one (e.g. 20 % alpha) is not visible focus.
    const alpha = /rgba\([^)]*,\s*([\d.]+)\)/.exec(style.outlineColor)?.[1] ?? '1'
    return (
      el.matches(':focus-visible') &&
      style.outlineStyle !== 'none' &&
      Number.parseFloat(style.outlineWidth) >= 2 &&
      Number(alpha) >= 0.9
    )
  })

/** id of the focused element (where assistive technology is reading). */
export const focusedId = (page: Page) => page.evaluate(() => document.activeElement?.id ?? '')
