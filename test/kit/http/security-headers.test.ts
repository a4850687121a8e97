// SPEC §15: CSP, nosniff, framing refused (but for the embeddable checkout), no-store on pages
// and credentialed API answers, no Referer from URLs that carry a capability.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { signupCreator } from '../../setup/actors.ts'
import { createProduct } from '../../setup/purchase.ts'
import { startTestService, type TestService } from '../../setup/service.ts'

let svc: TestService
let key: string
let slug: string
beforeAll(async () => {
  svc = await startTestService()
  key = await (await signupCreator(svc.api)).key(['write:products', 'read:products'])
  slug = (await createProduct(svc.api, key)).slug
})
afterAll(() => svc?.stop())

const get = (path: string, headers: Record<string, string> = {}) =>
  fetch(`${svc.url}${path}`, { headers, redirect: 'manual' })

/** The CSP's directives by name, e.g. `{ 'script-src': ["'self'"] }`. */
function directives(response: Response): Record<string, string[]> {
  const policy = response.headers.get('content-security-policy') ?? ''
  return Object.fromEntries(
    policy.split(';').map((d) => {
      const [name = '', ...values] = d.trim().split(/\s+/)
      return [name, values]
    }),
  )
}

const PRIVATE_PAGES = ['/dashboard', '/admin', '/members', '/members/senha', '/dev/mailbox']

describe('security headers', () => {
  it('pages: a CSP without inline script, framing refused, never cached', async () => {
    for (const path of PRIVATE_PAGES) {
      const res = await get(path)
      expect(res.headers.get('content-type'), path).toMatch(/^text\/html/)
      const csp = directives(res)
      expect(csp['script-src'], path).toEqual(["'self'"])
      expect(csp['object-src'], path).toEqual(["'none'"])
      expect(csp['base-uri'], path).toEqual(["'self'"])
      expect(csp['form-action'], path).toEqual(["'self'"])
      expect(csp['connect-src'], path).toEqual(["'self'"])
      expect(csp['frame-ancestors'], path).toEqual(["'none'"])
      expect(res.headers.get('x-frame-options'), path).toBe('DENY')
      expect(res.headers.get('cache-control'), path).toBe('no-store')
      expect(res.headers.get('x-content-type-options'), path).toBe('nosniff')
      expect(res.headers.get('referrer-policy'), path).toBe('strict-origin-when-cross-origin')
      // Not behind https here: no HSTS (the production test checks it is sent behind https).
      expect(res.headers.has('strict-transport-security'), path).toBe(false)
    }
  })

  it('the hosted checkout may be framed by a creator’s site, under the same CSP', async () => {
    const res = await get(`/checkout/${slug}`)
    expect(res.status).toBe(200)
    const csp = directives(res)
    expect(csp['script-src']).toEqual(["'self'"])
    expect(csp['frame-ancestors']).toEqual(['*'])
    expect(res.headers.has('x-frame-options')).toBe(false)
  })

  it('every page script is a same-origin file, served as JavaScript with nosniff', async () => {
    const page = await (await get(`/checkout/${slug}`)).text()
    const scripts = [...page.matchAll(/<script\b([^>]*)>/g)].map((m) => m[1]!)
    const inline = scripts.filter((attrs) => !/\bsrc=|type="application\/json"/.test(attrs))
    expect(inline).toEqual([])
    const src = /src="(\/assets\/[^"]+)"/.exec(scripts.join(' '))?.[1]
    expect(src).toBeDefined()
    const file = await get(src!)
    expect(file.status).toBe(200)
    expect(file.headers.get('content-type')).toMatch(/^text\/javascript/)
    expect(file.headers.get('x-content-type-options')).toBe('nosniff')
    expect(file.headers.get('cache-control')).toContain('immutable')
    expect(await file.text()).toContain('checkout-config')
    expect((await get('/assets/nada.0000.js')).status).toBe(404)
  })

  it('API: nosniff and a deny-all CSP; credentialed answers are not stored', async () => {
    const open = await get('/health')
    expect(open.headers.get('x-content-type-options')).toBe('nosniff')
    expect(directives(open)['default-src']).toEqual(["'none'"])
    expect(open.headers.get('cache-control')).toBeNull()
    const withKey = await get('/api/v1/products', { authorization: `Bearer ${key}` })
    expect(withKey.status).toBe(200)
    expect(withKey.headers.get('cache-control')).toBe('no-store')
    expect(withKey.headers.get('x-content-type-options')).toBe('nosniff')
  })

  it('no Referer leaves a page whose URL carries a token or a session', async () => {
    const session = '01900000-0000-7000-8000-000000000000'
    for (const path of [
      `/checkout/${slug}?session=${session}`,
      `/members/login?token=${'x'.repeat(32)}`,
    ]) {
      const res = await get(path)
      expect(res.headers.get('referrer-policy'), path).toBe('no-referrer')
    }
  })
})
