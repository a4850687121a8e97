// Factories that go through the public API, the way a creator would.
import { randomBytes } from 'node:crypto'
import type { ApiClient, Session } from './service.ts'

export interface Creator {
  userId: string
  accountId: string
  email: string
  session: Session
  /** Creates an API key of this creator's account with the given scopes. */
  key(scopes: string[]): Promise<string>
}

export async function signupCreator(api: ApiClient, name = 'Criadora Teste'): Promise<Creator> {
  const email = `criadora-${randomBytes(4).toString('hex')}@example.com`
  const res = await api('POST', '/api/auth/signup', {
    body: { name, email, password: 'senha-forte-123' },
  })
  if (res.status !== 201)
    throw new Error(`signup failed: ${res.status} ${JSON.stringify(res.body)}`)
  const cookie = sessionCookieFrom(res.headers)
  const session = { cookie, csrf: res.body.csrf_token as string }
  const accountId = res.body.account.id as string
  return {
    userId: res.body.user.id,
    accountId,
    email,
    session,
    async key(scopes) {
      const k = await api('POST', `/api/accounts/${accountId}/api-keys`, {
        session,
        body: { name: 'test', scopes },
      })
      if (k.status !== 201) throw new Error(`api key failed: ${k.status} ${JSON.stringify(k.body)}`)
      return k.body.key as string
    },
  }
}

export function sessionCookieFrom(headers: Headers): string {
  const cookies = headers.getSetCookie()
  return cookies.map((c) => c.split(';')[0]).join('; ')
}

/**
 * Logs in by an e-mailed one-time link the way a browser does: opening it shows a button (the
 * GET spends nothing), whose form POST spends the token and sets the session cookies.
 */
export async function followLoginLink(baseUrl: string, link: string): Promise<Session> {
  const url = new URL(link.replace(/^http:\/\/localhost:\d+/, baseUrl))
  const opened = await fetch(url)
  if (opened.status !== 200) throw new Error(`login link page: ${opened.status}`)
  const res = await fetch(`${baseUrl}/members/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: url.searchParams,
    redirect: 'manual',
  })
  if (res.status !== 303) throw new Error(`login link POST: ${res.status}`)
  const cookie = sessionCookieFrom(res.headers)
  return { cookie, csrf: /csrf_token=([^;]+)/.exec(cookie)![1]! }
}
