// Who is calling: a bearer API key (one account, its scopes) or a session cookie (the user,
// all scopes of the accounts they belong to, CSRF-checked on writes).
import type { FastifyReply, FastifyRequest } from 'fastify'
import { safeEqual } from '../crypto.ts'
import { Forbidden, NotFound, Unauthorized } from '../errors.ts'

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

/** Implemented by the accounts module; the kit only knows how to ask. */
export interface AuthResolver {
  byApiKey(rawKey: string): Promise<KeyIdentity | null>
  bySession(rawToken: string): Promise<SessionIdentity | null>
}

export interface Actor {
  userId: string
  isAdmin: boolean
  via: 'key' | 'session'
  keyId: string | null
}

export interface AccountActor extends Actor {
  accountId: string
}

declare module 'fastify' {
  interface FastifyInstance {
    authResolver: AuthResolver
  }
  interface FastifyRequest {
    identity?: Promise<KeyIdentity | SessionIdentity | null>
  }
}

const MUTATING = new Set(['POST', 'PUT', 'PATCH', 'DELETE'])

function bearer(request: FastifyRequest): string | null {
  const header = request.headers.authorization
  if (!header) return null
  const match = /^Bearer\s+(\S+)$/i.exec(header)
  return match?.[1] ?? ''
}

/** Resolves the caller once per request; null when no credentials were sent. */
function identify(request: FastifyRequest): Promise<KeyIdentity | SessionIdentity | null> {
  request.identity ??= (async () => {
    const key = bearer(request)
    if (key !== null) {
      if (!key) throw new Unauthorized()
      const found = await request.server.authResolver.byApiKey(key)
      if (!found) throw new Unauthorized()
      return found
    }
    const token = request.cookies?.[SESSION_COOKIE]
    if (!token) return null
    return (await request.server.authResolver.bySession(token)) ?? null
  })()
  return request.identity
}

function isKey(identity: KeyIdentity | SessionIdentity): identity is KeyIdentity {
  return 'keyId' in identity
}

function checkCsrf(request: FastifyRequest, identity: SessionIdentity): void {
  if (!MUTATING.has(request.method)) return
  const sent = request.headers[CSRF_HEADER]
  if (typeof sent !== 'string' || !safeEqual(sent, identity.csrfToken)) {
    throw new Forbidden('Invalid CSRF token')
  }
}

function actorOf(identity: KeyIdentity | SessionIdentity): Actor {
  return isKey(identity)
    ? { userId: identity.userId, isAdmin: identity.isAdmin, via: 'key', keyId: identity.keyId }
    : { userId: identity.userId, isAdmin: identity.isAdmin, via: 'session', keyId: null }
}

/** Any logged-in user (key or session). Keys need `scope` when one is given. */
export async function requireUser(request: FastifyRequest, scope?: string): Promise<Actor> {
  const identity = await identify(request)
  if (!identity) throw new Unauthorized()
  if (isKey(identity)) {
    if (scope && !identity.scopes.includes(scope)) throw new Forbidden(`Missing scope: ${scope}`)
  } else {
    checkCsrf(request, identity)
  }
  return actorOf(identity)
}

/** Session-only routes (API key management: a key never mints keys). */
export async function requireSession(request: FastifyRequest): Promise<SessionIdentity> {
  const identity = await identify(request)
  if (!identity || isKey(identity)) throw new Unauthorized()
  checkCsrf(request, identity)
  return identity
}

/**
 * Acts inside one account: the key's own, or for a session `accountId` when given, else the
 * `x-account-id` header, else the user's first account. An account the caller does not belong
 * to is a 404, never a hint that it exists.
 */
export async function requireAccount(
  request: FastifyRequest,
  scope: string,
  accountId?: string,
): Promise<AccountActor> {
  const identity = await identify(request)
  if (!identity) throw new Unauthorized()
  if (isKey(identity)) {
    if (!identity.scopes.includes(scope)) throw new Forbidden(`Missing scope: ${scope}`)
    if (accountId && accountId !== identity.accountId) throw new NotFound('Account not found')
    return { ...actorOf(identity), accountId: identity.accountId }
  }
  checkCsrf(request, identity)
  const wanted = accountId ?? request.headers[ACCOUNT_HEADER]
  const chosen = typeof wanted === 'string' ? wanted : identity.accountIds[0]
  if (!chosen || !identity.accountIds.includes(chosen)) throw new NotFound('Account not found')
  return { ...actorOf(identity), accountId: chosen }
}

export async function requireAdmin(request: FastifyRequest): Promise<Actor> {
  const actor = await requireUser(request)
  if (!actor.isAdmin) throw new Forbidden('Admin only')
  return actor
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
