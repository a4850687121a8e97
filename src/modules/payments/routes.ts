import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import { z } from 'zod'
import type { RouteModule } from '../../routes.ts'
import { receiveCallback } from './callbacks.ts'

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
        // A sale being confirmed, whose gateway backs off on failures (Asaas pauses its queue
        // after 15 in a row): never shed under load (kit/http/load-shedding.ts).
        config: { guard: 'public', critical: true },
        schema: {
          tags,
          operationId: 'receivePaymentCallback',
          summary: 'Gateway notification',
          errors: [401, 503],
          description:
            'Called by the payment gateway (or the payout provider: transfer events), authenticated (401 otherwise and nothing changes): sandbox `x-sandbox-signature: sha256=<hex HMAC of raw body>`; asaas `asaas-access-token: <ASAAS_WEBHOOK_TOKEN>`; mercadopago `x-signature: ts=…,v1=…` over `id:<data.id>;request-id:<x-request-id>;ts:<ts>;` with `?data.id=…&type=payment`. A notification is only a hint: the resource is read back from the gateway before anything changes; 503 when that read-back went unanswered (deliver again).',
          params: z.object({ gateway: z.string() }),
          response: { 200: z.object({ received: z.boolean(), outcome: z.string() }) },
        },
      },
      async (request) => {
        const raw = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0)
        const received = await receiveCallback(deps, request.params.gateway, {
          rawBody: raw,
          headers: request.headers,
          query: request.query as Record<string, string | undefined>,
        })
        request.log.info(received, 'payment callback')
        return { received: true, outcome: received.outcome }
      },
    )
  })
}
