import { z } from 'zod'
import { withTx } from '../../kit/db.ts'
import { IdParams } from '../../kit/http/schemas.ts'
import { hit, rateLimit } from '../../kit/rate-limit.ts'
import type { RouteModule } from '../../routes.ts'
import {
  CheckoutOut,
  CreateCheckoutBody,
  CreateSessionBody,
  OrderStatusOut,
  PatchSessionBody,
  SessionOut,
} from './schema.ts'
import { createCheckout, orderStatus } from './service.ts'
import { openSession, SESSIONS_PER_MINUTE, sessionToken, updateSession } from './sessions.ts'

const tags = ['checkout']

export const checkoutRoutes: RouteModule = (app, deps) => {
  // Per client IP (request.ip honours X-Forwarded-For only when TRUST_PROXY is on). Creations
  // are generous (CHECKOUT_CREATES_PER_MINUTE, 120 by default): mobile carriers put many
  // buyers behind one address (CGNAT).
  const sessionsPerIp = rateLimit('checkout-sessions', SESSIONS_PER_MINUTE, 60_000)
  const createsPerIp = rateLimit('checkout-create', deps.config.checkoutCreatesPerMinute, 60_000)

  app.post(
    '/api/checkout/create',
    {
      schema: {
        tags,
        security: [],
        description: `Creates the buyer (if new), a pending order and the gateway charge. one_time products accept PIX only. ${deps.config.checkoutCreatesPerMinute} per minute per IP.`,
        body: CreateCheckoutBody,
        response: { 201: CheckoutOut },
      },
    },
    async (request, reply) => {
      await hit(deps.db, deps.clock, createsPerIp, request.ip)
      return reply.code(201).send(await createCheckout(deps, request.body))
    },
  )

  app.post(
    '/api/checkout/sessions',
    {
      schema: {
        tags,
        security: [],
        description: `Opens (201) or reuses (200, same id and token, within 24 h) the session of an e-mail and product. ${SESSIONS_PER_MINUTE} per minute per IP.`,
        body: CreateSessionBody,
        response: { 200: SessionOut, 201: SessionOut },
      },
    },
    async (request, reply) => {
      await hit(deps.db, deps.clock, sessionsPerIp, request.ip)
      const { session, created } = await withTx(deps.db, (tx) =>
        openSession(tx, deps, {
          productId: request.body.product_id,
          planId: request.body.plan_id,
          email: request.body.email,
        }),
      )
      return reply
        .code(created ? 201 : 200)
        .send({ session_id: session.id, session_token: sessionToken(deps, session.id) })
    },
  )

  app.patch(
    '/api/checkout/sessions/:id',
    {
      schema: {
        tags,
        security: [],
        description: 'Stores what the buyer typed so far (needs the session token).',
        params: IdParams,
        body: PatchSessionBody,
        response: { 200: z.object({ session_id: z.string(), updated_at: z.string() }) },
      },
    },
    async (request) => {
      const session = await withTx(deps.db, (tx) =>
        updateSession(tx, deps, request.params.id, request.body),
      )
      return { session_id: session.id, updated_at: session.updated_at.toISOString() }
    },
  )

  app.get(
    '/api/orders/:id/status',
    { schema: { tags, security: [], params: IdParams, response: { 200: OrderStatusOut } } },
    async (request) => orderStatus(deps, request.params.id),
  )
}
