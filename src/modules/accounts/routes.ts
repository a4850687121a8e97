import { z } from 'zod'
import { withTx } from '../../kit/db.ts'
import {
  CSRF_COOKIE,
  clearSessionCookies,
  SESSION_COOKIE,
  setSessionCookies,
} from '../../kit/http/auth.ts'
import { accountActorOf, actorOf, sessionOf } from '../../kit/http/guard.ts'
import { NoContent } from '../../kit/http/schemas.ts'
import { hit, hitEach } from '../../kit/rate-limit.ts'
import type { RouteModule } from '../../routes.ts'
import { KeyCache } from './key-cache.ts'
import { LOGIN_LINKS_PER_EMAIL, LOGIN_LINKS_PER_IP, SIGNUPS_PER_IP } from './limits.ts'
import { sendLoginLink } from './login-links.ts'
import {
  AccountParams,
  ApiKeyOut,
  ApiKeyParams,
  CreateApiKeyBody,
  LoginBody,
  LoginLinkBody,
  MeOut,
  SessionOut,
  SignupBody,
} from './schema.ts'
import * as accounts from './service.ts'

const tags = ['accounts']

function apiKeyOut(row: {
  id: string
  name: string
  prefix: string
  scopes: string[]
  created_at: Date
  last_used_at: Date | null
}) {
  return {
    id: row.id,
    name: row.name,
    prefix: row.prefix,
    scopes: row.scopes,
    created_at: row.created_at.toISOString(),
    last_used_at: row.last_used_at?.toISOString() ?? null,
  }
}

export const accountRoutes: RouteModule = (app, deps) => {
  const keys = new KeyCache()
  app.decorate('authResolver', accounts.authResolver(deps, keys))
  const cookies = { secure: deps.config.baseUrl.startsWith('https://') }

  app.post(
    '/api/auth/signup',
    {
      config: { guard: 'public' },
      schema: {
        tags,
        operationId: 'signUp',
        summary: 'Sign up',
        description: `Creates the user and an account they own, and logs them in (session cookie and \`csrf_token\`). An e-mail already in use is a 409. ${SIGNUPS_PER_IP.limit} per hour per IP.`,
        errors: [429],
        body: SignupBody,
        response: { 201: SessionOut },
      },
    },
    async (request, reply) => {
      // Outside the transaction: a refused sign-up (409) still counts.
      await hit(deps.db, deps.clock, SIGNUPS_PER_IP, request.ip)
      const { user, account, session } = await withTx(deps.db, async (tx) => {
        const created = await accounts.signup(tx, deps, request.body)
        return { ...created, session: await accounts.createSession(tx, deps, created.user.id) }
      })
      setSessionCookies(reply, session, cookies)
      return reply.code(201).send({
        user: { id: user.id, name: user.name, email: user.email },
        account: { id: account.id, name: account.name },
        csrf_token: session.csrfToken,
      })
    },
  )

  app.post(
    '/api/auth/login',
    {
      config: { guard: 'public' },
      schema: {
        tags,
        operationId: 'logIn',
        summary: 'Log in',
        description:
          'Sets the session cookie and the readable `csrf_token` cookie; a wrong e-mail or password is a 401. Failures are limited per e-mail and per IP (429 with Retry-After).',
        body: LoginBody,
        response: { 200: SessionOut },
        errors: [401, 429],
      },
    },
    async (request, reply) => {
      const user = await accounts.login(deps.db, deps, request.body, request.ip)
      const session = await accounts.createSession(deps.db, deps, user.id)
      setSessionCookies(reply, session, cookies)
      return {
        user: { id: user.id, name: user.name, email: user.email },
        csrf_token: session.csrfToken,
      }
    },
  )

  app.post(
    '/api/auth/login-link',
    {
      config: { guard: 'public' },
      schema: {
        tags,
        operationId: 'requestLoginLink',
        summary: 'E-mail a log-in link',
        description:
          'E-mails a one-time log-in link to the members area when a user has this e-mail. Always 202, so the answer tells nothing about which e-mails exist.',
        body: LoginLinkBody,
        response: { 202: z.object({ accepted: z.literal(true) }) },
        errors: [429],
      },
    },
    async (request, reply) => {
      await hitEach(deps.db, deps.clock, [
        [LOGIN_LINKS_PER_EMAIL, request.body.email],
        [LOGIN_LINKS_PER_IP, request.ip],
      ])
      await withTx(deps.db, (tx) => sendLoginLink(tx, deps, request.body.email))
      return reply.code(202).send({ accepted: true as const })
    },
  )

  app.post(
    '/api/auth/logout',
    {
      config: { guard: 'session' },
      schema: {
        tags,
        operationId: 'logOut',
        summary: 'Log out',
        description: 'Ends the session and clears its cookies.',
        response: { 204: NoContent },
      },
    },
    async (request, reply) => {
      // The guard let a session in, so its cookie is there.
      await accounts.endSession(deps.db, request.cookies[SESSION_COOKIE] ?? '')
      clearSessionCookies(reply)
      return reply.code(204).send(null)
    },
  )

  app.get(
    '/api/auth/csrf',
    {
      config: { guard: 'session' },
      schema: {
        tags,
        operationId: 'renewCsrfToken',
        summary: 'Renew the CSRF token',
        description: 'Sets the `csrf_token` cookie again and returns it.',
        response: { 200: z.object({ csrf_token: z.string() }) },
      },
    },
    async (request, reply) => {
      const session = sessionOf(request)
      reply.setCookie(CSRF_COOKIE, session.csrfToken, {
        path: '/',
        sameSite: 'lax',
        secure: cookies.secure,
      })
      return { csrf_token: session.csrfToken }
    },
  )

  app.get(
    '/api/me',
    {
      config: { guard: 'user' },
      schema: {
        tags,
        operationId: 'getMe',
        summary: 'The caller and their accounts',
        response: { 200: MeOut },
      },
    },
    async (request) => accounts.describeUser(deps.db, actorOf(request).userId),
  )

  app.post(
    '/api/accounts/:account_id/api-keys',
    {
      config: { guard: { account: 'session', from: 'params.account_id' } },
      schema: {
        tags,
        operationId: 'createApiKey',
        summary: 'Create an API key',
        description: 'Session only. The key is returned once, here; only its hash is stored.',
        params: AccountParams,
        body: CreateApiKeyBody,
        response: { 201: z.object({ data: ApiKeyOut, key: z.string() }) },
      },
    },
    async (request, reply) => {
      const actor = accountActorOf(request)
      const { row, key } = await withTx(deps.db, (tx) =>
        accounts.createApiKey(tx, deps, {
          accountId: actor.accountId,
          userId: actor.userId,
          name: request.body.name,
          scopes: request.body.scopes,
        }),
      )
      return reply.code(201).send({ data: apiKeyOut(row), key })
    },
  )

  app.get(
    '/api/accounts/:account_id/api-keys',
    {
      config: { guard: { account: 'session', from: 'params.account_id' } },
      schema: {
        tags,
        operationId: 'listApiKeys',
        summary: 'List API keys',
        description: 'Session only. Never shows the keys themselves.',
        params: AccountParams,
        response: { 200: z.object({ data: z.array(ApiKeyOut) }) },
      },
    },
    async (request) => {
      const actor = accountActorOf(request)
      const rows = await accounts.listApiKeys(deps.db, actor.accountId)
      return { data: rows.map(apiKeyOut) }
    },
  )

  app.delete(
    '/api/accounts/:account_id/api-keys/:key_id',
    {
      config: { guard: { account: 'session', from: 'params.account_id' } },
      schema: {
        tags,
        operationId: 'revokeApiKey',
        summary: 'Revoke an API key',
        description:
          'Session only. The key stops working at once on the API process that revokes it, and within 10 seconds on any other.',
        params: ApiKeyParams,
        response: { 204: NoContent },
      },
    },
    async (request, reply) => {
      const actor = accountActorOf(request)
      await withTx(deps.db, (tx) =>
        accounts.revokeApiKey(tx, deps, keys, actor.accountId, request.params.key_id),
      )
      return reply.code(204).send(null)
    },
  )
}
