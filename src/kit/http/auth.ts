// Who is calling: a bearer API key (one account, its scopes) or a session cookie (the user,
// all scopes of the accounts they belong to). What a route lets them do is its guard (guard.ts).
import type { FastifyReply, FastifyRequest } from 'fastify'
import { Unauthorized } from '../errors.ts'

export const SESSION_COOKIE = 'vitrine_session'
export const CSRF_COOKIE = 'csrf_token'
export const CSRF_HEADER = 'x-csrf-token'
/** Lets a dashboard session choose which of its accounts a /api/v1 call acts in. */
export const ACCOUNT_HEADER = 'x-account-id'

export interface KeyIdentity {
  keyId: string
  userId: string
  accountId: string
  scopes: string[]
  isAdmin: boolean
}

export interface SessionIdentity {
  userId: string
  isAdmin: boolean
  /** Accounts the user belongs to, oldest first. */
  accountIds: string[]
  csrfToken: string
}

export type Identity = KeyIdentity | SessionIdentity

/** Implemented by the accounts module; the kit only knows how to ask. */
export interface AuthResolver {
  byApiKey(rawKey: string): Promise<KeyIdentity | null>
  bySession(rawToken: string): Promise<SessionIdentity | null>
}

declare module 'fastify' {
  interface FastifyInstance {
    authResolver: AuthResolver
  }
}

function bearer(request: FastifyRequest): string | null {
  const header = request.headers.authorization
  if (!header) return null
  const match = /^Bearer\s+(\S+)$/i.exec(header)
  return match?.[1] ?? ''
}

/**
 * The caller's identity; null when no credentials were sent. A bearer header wins over a
 * cookie, and a malformed or unknown key is a 401 at once (never a fallback to the cookie).
 */
export async function identify(request: FastifyRequest): Promise<Identity | null> {
  const key = bearer(request)
  if (key !== null) {
    const found = key ? await request.server.authResolver.byApiKey(key) : null
    if (!found) throw new Unauthorized()
    return found
  }
  const token = sessionToken(request)
  return token ? await request.server.authResolver.bySession(token) : null
}

export const sessionToken = (request: FastifyRequest): string | undefined =>
  request.cookies?.[SESSION_COOKIE]

export function isKey(identity: Identity): identity is KeyIdentity {
  return 'keyId' in identity
}

export interface CookieSettings {
  secure: boolean
}

/** Sets the httpOnly session cookie and the readable CSRF cookie after log-in. */
export function setSessionCookies(
  reply: FastifyReply,
  session: { token: string; csrfToken: string; maxAgeSeconds: number },
  settings: CookieSettings,
): void {
  const base = {
    path: '/',
    sameSite: 'lax' as const,
    secure: settings.secure,
    maxAge: session.maxAgeSeconds,
  }
  reply.setCookie(SESSION_COOKIE, session.token, { ...base, httpOnly: true })
  reply.setCookie(CSRF_COOKIE, session.csrfToken, { ...base, httpOnly: false })
}

export function clearSessionCookies(reply: FastifyReply): void {
  reply.clearCookie(SESSION_COOKIE, { path: '/' })
  reply.clearCookie(CSRF_COOKIE, { path: '/' })
}
