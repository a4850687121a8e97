// The endpoint Asaas' withdrawal validation webhook calls (authorization.ts): configured in the
// Asaas panel (Integrações → Mecanismos de segurança) with ASAAS_WEBHOOK_TOKEN as its token.
import { z } from 'zod'
import { safeEqual } from '../../../../kit/crypto.ts'
import { NotFound, Unauthorized } from '../../../../kit/errors.ts'
import type { RouteModule } from '../../../../routes.ts'
import { decideTransferAuthorization } from './authorization.ts'
import { ASAAS_TOKEN_HEADER } from './callback.ts'

const answer = z.union([
  z.object({ status: z.literal('APPROVED') }),
  z.object({ status: z.literal('REFUSED'), refuseReason: z.string() }),
])

export const asaasAuthorizationRoutes: RouteModule = (app, deps) => {
  app.post(
    '/api/payouts/asaas/authorization',
    {
      // Asaas cancels the withdrawal after three failed calls: never shed under load.
      config: { guard: 'public', critical: true },
      schema: {
        tags: ['payouts'],
        operationId: 'authorizeAsaasTransfer',
        summary: 'Asaas withdrawal validation',
        errors: [401, 404],
        description:
          "Called by Asaas' withdrawal validation webhook 5 s after each transfer, authenticated by `asaas-access-token` = ASAAS_WEBHOOK_TOKEN (401 otherwise; 404 when payouts are not Asaas'). Approves only a transfer Vitrine started for a withdrawal, with its amount and PIX key.",
        body: z.unknown(),
        response: { 200: answer },
      },
    },
    async (request) => {
      const settings = deps.config.asaas
      if (!settings || deps.payouts.name !== 'asaas') throw new NotFound()
      const token = request.headers[ASAAS_TOKEN_HEADER]
      if (typeof token !== 'string' || !safeEqual(token, settings.webhookToken))
        throw new Unauthorized()
      const decision = await decideTransferAuthorization(deps.db, request.body)
      request.log.info({ decision }, 'asaas transfer authorization')
      return decision
    },
  )
}
