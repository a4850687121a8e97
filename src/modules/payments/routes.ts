import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import { z } from 'zod'
import type { Deps } from '../../deps.ts'
import { withTx } from '../../kit/db.ts'
import { AppError, NotFound, Unauthorized } from '../../kit/errors.ts'
import type { RouteModule } from '../../routes.ts'
import { recordTransferNotice } from '../payouts/withdrawals.ts'
import type { CallbackReader, CallbackReading } from './gateway.ts'
import { returnLatePayment } from './late-payments.ts'
import { applyCallback } from './service.ts'

/**
 * Who reads the notifications posted to `/callback/{name}`: the gateway's reader, the payout
 * provider's (its transfer notices), or both in turn when they share the name and the URL
 * (Asaas takes payments and pays out): what the gateway ignores, the provider reads.
 */
function readerFor(deps: Deps, name: string): CallbackReader | null {
  const payouts =
    name === deps.payouts.name && deps.payouts.readCallback
      ? deps.payouts.readCallback.bind(deps.payouts)
      : null
  if (name !== deps.gateway.name) return payouts && { readCallback: payouts }
  if (!payouts) return deps.gateway
  return {
    async readCallback(request) {
      const reading = await deps.gateway.readCallback(request)
      return reading?.kind === 'ignored' ? payouts(request) : reading
    },
  }
}

async function applyReading(deps: Deps, reading: CallbackReading): Promise<string> {
  if (reading.kind === 'ignored') return 'ignored'
  if (reading.kind === 'transfer') {
    return recordTransferNotice(deps, reading.reference, reading.result)
  }
  const { callback } = reading
  await returnLatePayment(deps, callback)
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
            'Called by the payment gateway (or the payout provider: transfer events), authenticated (401 otherwise and nothing changes): sandbox `x-sandbox-signature: sha256=<hex HMAC of raw body>`; asaas `asaas-access-token: <ASAAS_WEBHOOK_TOKEN>`; mercadopago `x-signature: ts=…,v1=…` over `id:<data.id>;request-id:<x-request-id>;ts:<ts>;` with `?data.id=…&type=payment`. A notification is only a hint: the resource is read back from the gateway before anything changes; 503 when that read-back went unanswered (deliver again).',
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
