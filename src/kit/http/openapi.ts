// The OpenAPI document is generated from the routes themselves: their zod schemas, and what
// each route declares — its guard (security, 401/403), its parameters and body (400, 404,
// 413, 415), the extra errors it can answer (`schema.errors`) — so it cannot drift from the
// code. Served at /openapi.json; /docs renders it.
import { STATUS_CODES } from 'node:http'
import swagger from '@fastify/swagger'
import type { FastifyInstance, RouteOptions } from 'fastify'
import { jsonSchemaTransform } from 'fastify-type-provider-zod'
import { z } from 'zod'
import { type Guard, scopeOf, sessionOnly } from './guard.ts'
import { ErrorOut, PayoutErrorOut } from './schemas.ts'

export type ErrorStatus = 400 | 401 | 402 | 403 | 404 | 409 | 413 | 415 | 422 | 429 | 502 | 503

declare module 'fastify' {
  interface FastifySchema {
    /** Error statuses the route answers beyond those its guard, parameters and body imply. */
    errors?: readonly ErrorStatus[]
  }
}

const WHY: Record<ErrorStatus, string> = {
  400: 'Validation failed (`details` names the fields) or a business rule refused the request',
  401: 'Missing or invalid credentials',
  402: 'Payment refused',
  403: 'Not allowed: a scope the key lacks (`Missing scope: <scope>`), the CSRF token, or the rule named in `error`',
  404: "Unknown id, or another account's",
  409: 'Conflict with the current state, or a request with this Idempotency-Key still running',
  413: 'Body larger than 1 MiB',
  415: 'Body is not JSON',
  422: 'Idempotency-Key already used with another request',
  429: 'Too many requests: retry after `Retry-After` seconds',
  502: 'The gateway gave no answer; repeating the request is safe',
  503: 'Too busy: too many requests under way, retry after `Retry-After` seconds; or our side failed after the gateway answered. Nothing was kept, so repeating is safe',
}

/** The two error bodies, as components every error response points at. */
const ERROR_SCHEMAS = { Error: ErrorOut, PayoutError: PayoutErrorOut }

function errorResponse(status: ErrorStatus, payout: boolean) {
  const ref = `#/components/schemas/${payout ? 'PayoutError' : 'Error'}`
  return { description: WHY[status], content: { 'application/json': { schema: { $ref: ref } } } }
}

const MUTATING = new Set(['POST', 'PUT', 'PATCH', 'DELETE'])

export const SECURITY_SCHEMES = {
  apiKey: { type: 'http', scheme: 'bearer', description: 'An API key, created in the dashboard' },
  session: {
    type: 'apiKey',
    in: 'cookie',
    name: 'vitrine_session',
    description:
      'The session cookie set by log-in. Writes also send the `csrf_token` cookie back in the `x-csrf-token` header.',
  },
} as const

/** Which credentials the guard accepts, as OpenAPI security requirements. */
function securityOf(guard: Guard): Record<string, string[]>[] {
  if (guard === 'public') return []
  if (sessionOnly(guard)) return [{ session: [] }]
  return [{ apiKey: [] }, { session: [] }]
}

/** The error statuses a route can answer, derived from what it declares. */
export function errorStatuses(route: RouteOptions, guard: Guard): ErrorStatus[] {
  const schema = route.schema ?? {}
  const methods = [route.method].flat()
  const isApiPost = methods.includes('POST') && route.url.startsWith('/api/')
  const out = new Set<ErrorStatus>(schema.errors ?? [])
  // Idempotency-Key: too long (400), still running (409), reused with another body (422).
  if (isApiPost) for (const status of [400, 409, 422] as const) out.add(status)
  if (schema.body || schema.querystring || schema.params) out.add(400)
  if (schema.body) for (const status of [413, 415] as const) out.add(status)
  if (schema.params) out.add(404)
  // Any route may be shed under load but those that finish a sale (kit/http/load-shedding.ts).
  if (!route.config?.critical) out.add(503)
  if (guard !== 'public') {
    out.add(401)
    const writes = methods.some((method) => MUTATING.has(method))
    if (writes || scopeOf(guard) || guard === 'admin') out.add(403)
    if (typeof guard === 'object' && 'account' in guard) out.add(404)
  }
  return [...out].sort()
}

type TransformInput = Parameters<typeof jsonSchemaTransform>[0]
type ResponseDoc = { description?: string; type?: string }

/** jsonSchemaTransform, plus security, the guard and the error responses of each route. */
function transform(input: TransformInput) {
  const { errors: _declared, ...schema } = input.schema ?? {}
  const out = jsonSchemaTransform({ ...input, schema })
  if (schema.hide) return out
  const route = input.route as RouteOptions
  const guard = route.config?.guard ?? 'public'
  const payout = route.config?.payoutErrors === true
  const response = (out.schema.response ?? {}) as Record<string, ResponseDoc>
  allowNullInNullableEnums(response)
  for (const [status, answer] of Object.entries(response)) {
    answer.description ??= STATUS_CODES[status]
  }
  for (const status of errorStatuses(route, guard)) {
    response[status] ??= errorResponse(status, payout)
  }
  // A 204 has no body: a `null` type tells @fastify/swagger to document none.
  if (response['204']) response['204'] = { type: 'null', description: 'No content' }
  return {
    ...out,
    schema: { ...out.schema, response, security: securityOf(guard), 'x-guard': guard },
  }
}

/**
 * OpenAPI 3.0 checks `enum` even when `nullable` is true, so a nullable enum must list `null`
 * itself (zod's output leaves it out, and validators then refuse the `null`s we send).
 */
function allowNullInNullableEnums(node: unknown): void {
  if (!node || typeof node !== 'object') return
  const schema = node as Record<string, unknown>
  if (schema.nullable === true && Array.isArray(schema.enum) && !schema.enum.includes(null)) {
    schema.enum = [...schema.enum, null]
  }
  for (const child of Object.values(schema)) allowNullInNullableEnums(child)
}

function jsonSchemaOf(shape: z.ZodType): object {
  const { $schema: _, ...schema } = z.toJSONSchema(shape, { target: 'openapi-3.0', io: 'output' })
  return schema
}

export async function registerOpenapi(app: FastifyInstance): Promise<void> {
  await app.register(swagger, {
    openapi: {
      info: {
        title: 'Vitrine API',
        version: '1.0.0',
        description:
          'Creator commerce for Brazil: products, hosted checkout (PIX, card, boleto), orders, members, webhooks, balances and PIX withdrawals.',
      },
      components: {
        securitySchemes: SECURITY_SCHEMES,
        schemas: Object.fromEntries(
          Object.entries(ERROR_SCHEMAS).map(([name, shape]) => [name, jsonSchemaOf(shape)]),
        ),
      },
    },
    transform,
  })
}

/** The document, with the server this deployment answers on (BASE_URL). */
export function openapiDocument(app: FastifyInstance, baseUrl: string) {
  return { ...app.swagger(), servers: [{ url: baseUrl }] }
}
