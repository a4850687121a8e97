import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import { z } from 'zod'
import type { Deps } from '../../deps.ts'
import { withTx } from '../../kit/db.ts'
import { AppError, NotFound, Unauthorized } from '../../kit/errors.ts'
import type { RouteModule } from '../../routes.ts'
import { recordTransferNotice } from '../payouts/withdrawals.ts'
import type { CallbackReader, CallbackReading } from './gateway.ts'
import { applyCallback } from './service.ts'

/** The gateway's reader, or the payout provider's (its transfer notices) when it is another. */
function readerFor(deps: Deps, name: string): CallbackReader | null {
  if (name === deps.gateway.name) return deps.gateway
  if (name === deps.payouts.name && deps.payouts.readCallback) {
    return { readCallback: deps.payouts.readCallback.bind(deps.payouts) }
  }
  return null
}

async function applyReading(deps: Deps, reading: CallbackReading): Promise<string> {
  if (reading.kind === 'ignored') return 'ignored'
  if (reading.kind === 'transfer') {
    return recordTransferNotice(deps, reading.reference, reading.result)
  }
  const { callback } = reading
  return withTx(deps.db, (tx) => applyCallback(tx, deps, deps.gateway.name, callback))
}

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
          errors: [401, 503],
          description:
            'Called by the payment gateway, authenticated by its signature (401 otherwise). Sandbox: `x-sandbox-signature: sha256=<hex HMAC of raw body>`.',
          params: z.object({ gateway: z.string() }),
          response: { 200: z.object({ received: z.boolean(), outcome: z.string() }) },
        },
      },
      async (request) => {
        const reader = readerFor(deps, request.params.gateway)
        if (!reader) throw new NotFound('Unknown gateway')
        const raw = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0)
        let reading: CallbackReading | null
        try {
          reading = await reader.readCallback({
            rawBody: raw,
            headers: request.headers,
            query: request.query as Record<string, string | undefined>,
          })
        } catch (error) {
          // Authentic, but the read-back went unanswered: the gateway delivers again, and
          // reconciliation looks the charge up meanwhile.
          request.log.warn({ err: error }, 'payment callback: read-back answer unknown')
          throw new AppError(503, 'Gateway indisponível; tente novamente', 'unavailable')
        }
        if (!reading) throw new Unauthorized()
        const outcome = await applyReading(deps, reading)
        request.log.info({ kind: reading.kind, outcome }, 'payment callback')
        return { received: true, outcome }
      },
    )
  })
}
