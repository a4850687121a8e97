import { z } from 'zod'
import { withTx } from '../../kit/db.ts'
import {
  CSRF_COOKIE,
  clearSessionCookies,
  requireAccount,
  requireSession,
  requireUser,
  SESSION_COOKIE,
  setSessionCookies,
} from '../../kit/http/auth.ts'
import { hit, hitEach } from '../../kit/rate-limit.ts'
import type { RouteModule } from '../../routes.ts'
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
  app.decorate('authResolver', accounts.authResolver(deps))
  const cookies = { secure: deps.config.baseUrl.startsWith('https://') }

  app.post(
    '/api/auth/signup',
    {
      schema: {
        tags,
        security: [],
        description: `Creates a user and the account they own, and logs them in. ${SIGNUPS_PER_IP.limit} per hour per IP.`,
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
      schema: {
        tags,
        security: [],
        description:
          'Logs in with e-mail and password. Failures are limited per e-mail and per IP (429 with Retry-After).',
        body: LoginBody,
        response: { 200: SessionOut },
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
      schema: {
        tags,
        security: [],
        description:
          'E-mails a one-time log-in link to the members area when a user has this e-mail. Always 202, so the answer tells nothing about which e-mails exist.',
        body: LoginLinkBody,
        response: { 202: z.object({ accepted: z.literal(true) }) },
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

  app.post('/api/auth/logout', { schema: { tags } }, async (request, reply) => {
    const token = request.cookies[SESSION_COOKIE]
    if (token) {
      await requireSession(request)
      await accounts.endSession(deps.db, token)
    }
    clearSessionCookies(reply)
    return reply.code(204).send()
  })

  app.get(
    '/api/auth/csrf',
    {
      schema: {
        tags,
        security: [{ session: [] }],
        response: { 200: z.object({ csrf_token: z.string() }) },
      },
    },
    async (request, reply) => {
      const session = await requireSession(request)
      reply.setCookie(CSRF_COOKIE, session.csrfToken, {
        path: '/',
        sameSite: 'lax',
        secure: cookies.secure,
      })
      return { csrf_token: session.csrfToken }
    },
  )

  app.get('/api/me', { schema: { tags, response: { 200: MeOut } } }, async (request) => {
    const actor = await requireUser(request)
    return accounts.describeUser(deps.db, actor.userId)
  })

  app.post(
    '/api/accounts/:account_id/api-keys',
    {
      schema: {
        tags,
        security: [{ session: [] }],
        params: AccountParams,
        body: CreateApiKeyBody,
        response: { 201: z.object({ data: ApiKeyOut, key: z.string() }) },
      },
    },
    async (request, reply) => {
      const session = await requireSession(request)
      const actor = await requireAccount(request, 'write:api_keys', request.params.account_id)
      const { row, key } = await withTx(deps.db, (tx) =>
        accounts.createApiKey(tx, deps, {
          accountId: actor.accountId,
          userId: session.userId,
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
      schema: {
        tags,
        security: [{ session: [] }],
        params: AccountParams,
        response: { 200: z.object({ data: z.array(ApiKeyOut) }) },
      },
    },
    async (request) => {
      await requireSession(request)
      const actor = await requireAccount(request, 'read:api_keys', request.params.account_id)
      const rows = await accounts.listApiKeys(deps.db, actor.accountId)
      return { data: rows.map(apiKeyOut) }
    },
  )

  app.delete(
    '/api/accounts/:account_id/api-keys/:key_id',
    { schema: { tags, security: [{ session: [] }], params: ApiKeyParams } },
    async (request, reply) => {
      await requireSession(request)
      const actor = await requireAccount(request, 'write:api_keys', request.params.account_id)
      await withTx(deps.db, (tx) =>
        accounts.revokeApiKey(tx, deps, actor.accountId, request.params.key_id),
      )
      return reply.code(204).send()
    },
  )
}
