import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import { z } from 'zod'
import { withTx } from '../../kit/db.ts'
import { NotFound, Unauthorized } from '../../kit/errors.ts'
import type { RouteModule } from '../../routes.ts'
import { applyCallback } from './service.ts'

const tags = ['payments']

export const paymentRoutes: RouteModule = async (app, deps) => {
  // Signatures cover the raw bytes, so this route keeps the body as a Buffer.
  await app.register(async (plain) => {
    const scope = plain.withTypeProvider<ZodTypeProvider>()
    scope.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_req, body, done) =>
      done(null, body),
    )
    scope.post(
      '/api/payments/callback/:gateway',
      {
        config: { guard: 'public' },
        schema: {
          tags,
          operationId: 'receivePaymentCallback',
          summary: 'Gateway notification',
          errors: [401],
          description:
            'Called by the payment gateway, authenticated by its signature (401 otherwise). Sandbox: `x-sandbox-signature: sha256=<hex HMAC of raw body>`.',
          params: z.object({ gateway: z.string() }),
          response: { 200: z.object({ received: z.boolean(), outcome: z.string() }) },
        },
      },
      async (request) => {
        if (request.params.gateway !== deps.gateway.name) throw new NotFound('Unknown gateway')
        const raw = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0)
        const callback = deps.gateway.parseCallback(raw, request.headers)
        if (!callback) throw new Unauthorized()
        const outcome = await withTx(deps.db, (tx) =>
          applyCallback(tx, deps, deps.gateway.name, callback),
        )
        request.log.info({ eventId: callback.eventId, outcome }, 'payment callback')
        return { received: true, outcome }
      },
    )
  })
}
