import { z } from 'zod'
import { withTx } from '../../kit/db.ts'
import { NotFound } from '../../kit/errors.ts'
import { anonymousAnswer, replay, retryLater } from '../../kit/http/idempotency.ts'
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
import { openSession, patchSession, SESSIONS_PER_MINUTE, sessionToken } from './sessions.ts'

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
      config: { guard: 'public' },
      schema: {
        tags,
        operationId: 'createCheckout',
        summary: 'Buy: create the order and its charge',
        description: `Creates the buyer (if new), a pending order and then the gateway charge. The product's \`payment_methods\` say which methods it takes (another is a 400); card \`installments\` go up to its \`max_installments\`, and when the buyer pays their interest \`amount\` includes it (\`interest\`). The card comes as \`card_token\` where the gateway tokenizes in the page, or as \`card\` with \`postal_code\` and \`address_number\` where it takes card data (Asaas). A charge the gateway refuses is a 400 with its reason (a 502 when our setup was refused); a declined card is a 402 \`Cartão recusado\` with the gateway's reason in \`details\`; an order that closed while it was charged is a 409 (the charge is canceled); no answer from the gateway is a 502 whose \`details\` name the order (\`order_id\`), which reconciliation settles: poll its status, and its \`Idempotency-Key\` keeps the 502, so a retry never charges twice; our own failure after the charge is a 503 (the charge is canceled). ${deps.config.checkoutCreatesPerMinute} per minute per IP.`,
        errors: [402, 404, 409, 429, 502, 503],
        body: CreateCheckoutBody,
        response: { 201: CheckoutOut },
      },
    },
    async (request, reply) => {
      // Counted relaxed (kit/db.ts): a count lost in a database crash lets a few more through.
      // The hit goes in the statement that reads the product (one round trip for both).
      const limit = { rule: createsPerIp, key: request.ip }
      const remoteIp = request.ip
      return reply.code(201).send(await createCheckout(deps, request.body, { remoteIp, limit }))
    },
  )

  app.post(
    '/api/checkout/sessions',
    {
      config: { guard: 'public' },
      schema: {
        tags,
        operationId: 'openCheckoutSession',
        summary: 'Open a checkout session',
        errors: [404, 429],
        description: `Opens (201) or reuses (200, same id and token, within 24 h) the session of an e-mail and product. ${SESSIONS_PER_MINUTE} per minute per IP.`,
        body: CreateSessionBody,
        response: { 200: SessionOut, 201: SessionOut },
      },
    },
    async (request, reply) => {
      await hit(deps.database.relaxed, deps.clock, sessionsPerIp, request.ip)
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
      config: { guard: 'public' },
      schema: {
        tags,
        operationId: 'updateCheckoutSession',
        summary: 'Save what the buyer typed',
        description:
          'Stores what the buyer typed so far. Needs the session token (403 without it).',
        errors: [403],
        params: IdParams,
        body: PatchSessionBody,
        response: { 200: z.object({ session_id: z.string(), updated_at: z.string() }) },
      },
    },
    async (request) => {
      const session = await patchSession(deps, request.params.id, request.body)
      return { session_id: session.id, updated_at: session.updated_at.toISOString() }
    },
  )

  app.get(
    '/api/checkout/attempts/:key',
    {
      config: { guard: 'public' },
      schema: {
        tags,
        operationId: 'getCheckoutAttempt',
        summary: 'The answer to an order whose answer was lost',
        description:
          "The hosted checkout keeps the `Idempotency-Key` of an order whose answer never came (a dropped connection, then a reload of the page) and asks here: the answer that order got (its status and body, as `createCheckout` gave them), a 409 with `Retry-After` while it is still being handled, a 404 when no order with that key reached the service in the last 24 h. Only the page's keys (32 hex digits: 128 random bits) are looked up, as the key alone proves the asker sent the order.",
        params: z.object({ key: z.string().regex(/^[0-9a-f]{32}$/) }),
        // The order's own answers (its errors, and the 502 of an unknown outcome: any other 5xx
        // frees the key), and this route's.
        errors: [402, 404, 409, 429, 502],
        response: { 201: CheckoutOut },
      },
    },
    async (request, reply) => {
      const answer = await anonymousAnswer(deps.db, request.params.key, deps.clock.now())
      if (!answer) throw new NotFound('Tentativa não encontrada')
      if (answer.status === null) return retryLater(reply, 'Pedido ainda em processamento')
      return replay(reply, answer.status, answer.body)
    },
  )

  app.get(
    '/api/orders/:id/status',
    {
      config: { guard: 'public' },
      schema: {
        tags,
        operationId: 'getOrderStatus',
        summary: "An order's payment status",
        description: 'What the checkout page polls; `redirect_url` once paid.',
        params: IdParams,
        response: { 200: OrderStatusOut },
      },
    },
    async (request) => orderStatus(deps, request.params.id),
  )
}
