// Every /api route states who may call it where it is declared: `config: { guard }`. One hook
// per route resolves the guard on request, before the body is even parsed (a missing
// credential is a 401 whatever the body), CSRF-checks cookie writes (SPEC §2) and hands the
// handler a typed actor. Start-up refuses an /api route without a guard.
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify'
import { safeEqual, sha256Hex } from '../crypto.ts'
import { AppError, Forbidden, NotFound, Unauthorized } from '../errors.ts'
import {
  ACCOUNT_HEADER,
  CSRF_HEADER,
  type Identity,
  identify,
  isKey,
  type SessionIdentity,
  sessionToken,
} from './auth.ts'

/** Where an account route reads the account the caller picked: a path or query parameter. */
export type AccountSource = `params.${string}` | `query.${string}`

export type Guard =
  /** Anyone, no credentials (checkout, gateway callbacks, log-in). */
  | 'public'
  /** Any logged-in user: an API key (whatever its scopes) or a session. */
  | 'user'
  /** A cookie session only: a key never logs out, sets a password or renews CSRF. */
  | 'session'
  /** The platform admin: the admin's session or an API key of the admin user. */
  | 'admin'
  /** Any user acting as themselves: a key needs the scope; a session holds every scope. */
  | { scope: string }
  /**
   * Acts inside one account: a key's own account (a key needs the scope); a session's from
   * `from` when given, else the `x-account-id` header, else its first. An account the caller
   * does not belong to is a 404. `account: 'session'` lets only a session in (API-key
   * management: a key never mints keys).
   */
  | { account: string; from?: AccountSource }

export interface Actor {
  userId: string
  isAdmin: boolean
  /** The credential that acted, `key:<id>` or `session:<sha256 of the token>`. */
  credential: string
}

export interface AccountActor extends Actor {
  accountId: string
}

export interface SessionActor extends Actor {
  csrfToken: string
}

/** A page's answer to a caller its guard refused (the log-in form instead of JSON). */
export type DeniedPage = (error: AppError) => { status: number; html: string } | undefined

declare module 'fastify' {
  interface FastifyContextConfig {
    guard?: Guard
    deniedPage?: DeniedPage
  }
  interface FastifyRequest {
    /** Set by the guard hook; read it through `actorOf` and friends. */
    actor?: Actor
    identity?: Identity
  }
}

const MUTATING = new Set(['POST', 'PUT', 'PATCH', 'DELETE'])

/** The scope a guard asks of an API key, if any. */
export function scopeOf(guard: Guard): string | undefined {
  if (typeof guard !== 'object') return undefined
  const scope = 'scope' in guard ? guard.scope : guard.account
  return scope === 'session' ? undefined : scope
}

/** True when an API key can never pass the guard. */
export function sessionOnly(guard: Guard): boolean {
  return (
    guard === 'session' ||
    (typeof guard === 'object' && 'account' in guard && guard.account === 'session')
  )
}

/** Refuses /api routes without a guard (or with an unknown scope) and attaches the hook. */
export function registerGuards(app: FastifyInstance, opts: { scopes: readonly string[] }): void {
  app.addHook('onRoute', (route: RouteOptions) => {
    const guard = route.config?.guard
    const name = `${String(route.method)} ${route.url}`
    if (!guard) {
      if (route.url.startsWith('/api/')) throw new Error(`${name} declares no guard (config.guard)`)
      return
    }
    const scope = scopeOf(guard)
    if (scope && !opts.scopes.includes(scope)) {
      throw new Error(`${name} asks for the unknown scope "${scope}"`)
    }
    if (guard === 'public') return
    const hook = guardHook(guard, route.config?.deniedPage)
    const own = route.onRequest
    route.onRequest = own ? [hook, ...(Array.isArray(own) ? own : [own])] : [hook]
  })
}

function guardHook(guard: Exclude<Guard, 'public'>, deniedPage: DeniedPage | undefined) {
  return async function guardRoute(request: FastifyRequest, reply: FastifyReply) {
    try {
      request.actor = await authorize(request, guard)
    } catch (error) {
      const page = error instanceof AppError ? deniedPage?.(error) : undefined
      if (!page) throw error
      return reply.code(page.status).type('text/html').send(page.html)
    }
  }
}

async function authorize(request: FastifyRequest, guard: Exclude<Guard, 'public'>) {
  const identity = await identify(request)
  if (!identity || (isKey(identity) && sessionOnly(guard))) throw new Unauthorized()
  request.identity = identity
  if (!isKey(identity)) checkCsrf(request, identity)
  const scope = scopeOf(guard)
  if (scope && isKey(identity) && !identity.scopes.includes(scope)) {
    throw new Forbidden(`Missing scope: ${scope}`)
  }
  if (guard === 'admin' && !identity.isAdmin) throw new Forbidden('Admin only')
  if (typeof guard === 'object' && 'account' in guard) {
    return inAccount(request, guard.from && picked(request, guard.from))
  }
  return actorFrom(request, identity)
}

function checkCsrf(request: FastifyRequest, identity: SessionIdentity): void {
  if (!MUTATING.has(request.method)) return
  const sent = request.headers[CSRF_HEADER]
  if (typeof sent !== 'string' || !safeEqual(sent, identity.csrfToken)) {
    throw new Forbidden('Invalid CSRF token')
  }
}

/** The raw (not yet validated) parameter the caller named the account with. */
function picked(request: FastifyRequest, source: AccountSource): string | undefined {
  const [part, name] = source.split('.') as ['params' | 'query', string]
  const value = (request[part] as Record<string, unknown> | undefined)?.[name]
  return typeof value === 'string' ? value : undefined
}

function actorFrom(request: FastifyRequest, identity: Identity): Actor {
  if (isKey(identity)) {
    return {
      userId: identity.userId,
      isAdmin: identity.isAdmin,
      credential: `key:${identity.keyId}`,
    }
  }
  return {
    userId: identity.userId,
    isAdmin: identity.isAdmin,
    credential: `session:${sha256Hex(sessionToken(request) ?? '')}`,
  }
}

/**
 * The caller inside `accountId` (or their default account): for routes whose account comes
 * from the validated body, checked after the route's own earlier checks (withdrawals).
 */
export function inAccount(request: FastifyRequest, accountId: string | undefined): AccountActor {
  const identity = request.identity
  if (!identity) throw new Error(`${request.routeOptions.url}: no caller resolved`)
  const actor = actorFrom(request, identity)
  if (isKey(identity)) {
    if (accountId && accountId !== identity.accountId) throw new NotFound('Account not found')
    return { ...actor, accountId: identity.accountId }
  }
  const wanted = accountId ?? request.headers[ACCOUNT_HEADER]
  const chosen = typeof wanted === 'string' ? wanted : identity.accountIds[0]
  if (!chosen || !identity.accountIds.includes(chosen)) throw new NotFound('Account not found')
  return { ...actor, accountId: chosen }
}

/** The caller the route's guard let in (every guard but 'public'). */
export function actorOf(request: FastifyRequest): Actor {
  if (!request.actor) throw new Error(`${request.routeOptions.url}: its guard resolves no caller`)
  return request.actor
}

/** The caller and the account they act in (an `{ account }` guard). */
export function accountActorOf(request: FastifyRequest): AccountActor {
  const actor = actorOf(request)
  if (!('accountId' in actor)) {
    throw new Error(`${request.routeOptions.url}: its guard names no account`)
  }
  return actor as AccountActor
}

/** The session caller (a 'session' guard). */
export function sessionOf(request: FastifyRequest): SessionActor {
  const actor = actorOf(request)
  const identity = request.identity
  if (!identity || isKey(identity)) {
    throw new Error(`${request.routeOptions.url}: its guard is not session-only`)
  }
  return { ...actor, csrfToken: identity.csrfToken }
}
