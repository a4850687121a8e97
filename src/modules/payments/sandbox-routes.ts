// Controls of the sandbox gateway (only while PAYMENT_GATEWAY=sandbox): they play the part of
// the buyer's bank and of the gateway, which then calls the service back over real HTTP.
import { z } from 'zod'
import { BadRequest, NotFound } from '../../kit/errors.ts'
import type { RouteModule } from '../../routes.ts'
import {
  failSandboxRefunds,
  loseSandboxRefundAnswers,
  type SandboxEventType,
  sandboxBoletoPdf,
  sendSandboxCallback,
  tokenizeSandboxCard,
} from './gateways/sandbox.ts'

const tags = ['sandbox']
const ChargeParams = z.object({ charge_id: z.string().min(1).max(100) })
const CallbackOut = z.object({
  charge_id: z.string(),
  order_id: z.string(),
  callback_status: z
    .number()
    .nullable()
    .describe("The service's answer to the callback; null with `notify=false`"),
})
const ControlQuery = z.object({
  notify: z
    .enum(['true', 'false'])
    .default('true')
    .describe(
      '`false`: the sandbox changes its own books but the callback is lost on its way (the service learns it only by looking the charge up: reconciliation)',
    ),
})

const CONTROLS: Record<string, { type: SandboxEventType; operationId: string; summary: string }> = {
  pay: { type: 'charge.paid', operationId: 'paySandboxCharge', summary: 'Pay a charge' },
  expire: {
    type: 'charge.expired',
    operationId: 'expireSandboxCharge',
    summary: 'Expire a charge',
  },
  chargeback: {
    type: 'charge.chargeback',
    operationId: 'chargeBackSandboxCharge',
    summary: 'Charge back a payment',
  },
}
// The sandbox stands for a gateway, which no load of ours turns away.
const config = { guard: 'public', critical: true } as const

export const sandboxRoutes: RouteModule = (app, deps) => {
  if (deps.config.paymentGateway !== 'sandbox') return

  // The printable boleto a real gateway links to (Asaas bankSlipUrl): a document, not an API
  // operation, so it stays out of /openapi.json.
  app.get(
    '/sandbox/boletos/:file',
    { config, schema: { hide: true, params: z.object({ file: z.string().max(80) }) } },
    async (request, reply) => {
      const chargeId = /^(sbx_[0-9a-f]{32})\.pdf$/.exec(request.params.file)?.[1]
      const pdf = chargeId ? await sandboxBoletoPdf(deps, chargeId) : null
      if (!pdf) throw new NotFound('Boleto não encontrado')
      return reply
        .type('application/pdf')
        .header('content-disposition', `inline; filename="boleto-${chargeId}.pdf"`)
        .send(pdf)
    },
  )

  for (const [action, { type, operationId, summary }] of Object.entries(CONTROLS)) {
    app.post(
      `/sandbox/charges/:charge_id/${action}`,
      {
        config,
        schema: {
          tags,
          operationId,
          summary,
          description: `Makes the sandbox gateway send its signed \`${type}\` callback to the service; with \`notify=false\` the callback is lost (a lost notification, which reconciliation must make up for).`,
          params: ChargeParams,
          querystring: ControlQuery,
          response: { 200: CallbackOut },
        },
      },
      async (request) => {
        const notify = request.query.notify === 'true'
        const sent = await sendSandboxCallback(deps, request.params.charge_id, type, { notify })
        if (!sent) throw new NotFound('Cobrança não encontrada')
        return {
          charge_id: request.params.charge_id,
          order_id: sent.orderId,
          callback_status: sent.callbackStatus,
        }
      },
    )
  }

  app.post(
    '/sandbox/charges/:charge_id/fail-refunds',
    {
      config,
      schema: {
        tags,
        operationId: 'failSandboxRefunds',
        summary: "Make a charge's refunds fail",
        description:
          "Makes every later refund of this charge fail at the sandbox gateway (the buyer's account is closed).",
        params: ChargeParams,
        response: { 200: z.object({ charge_id: z.string(), refund_failure: z.string() }) },
      },
    },
    async (request) => {
      const reason = await failSandboxRefunds(deps, request.params.charge_id)
      if (!reason) throw new NotFound('Cobrança não encontrada')
      return { charge_id: request.params.charge_id, refund_failure: reason }
    },
  )

  app.post(
    '/sandbox/charges/:charge_id/lose-refund-answers',
    {
      config,
      schema: {
        tags,
        operationId: 'loseSandboxRefundAnswers',
        summary: "Lose a charge's refund answers",
        description:
          'While `lost` is true, refunds of this charge are carried out but no answer reaches the service (refund calls and lookups fail as on a network error).',
        params: ChargeParams,
        body: z.object({ lost: z.boolean() }),
        response: { 200: z.object({ charge_id: z.string(), lost: z.boolean() }) },
      },
    },
    async (request) => {
      const { lost } = request.body
      if (!(await loseSandboxRefundAnswers(deps, request.params.charge_id, lost)))
        throw new NotFound('Cobrança não encontrada')
      return { charge_id: request.params.charge_id, lost }
    },
  )

  app.post(
    '/sandbox/card-tokens',
    {
      config,
      schema: {
        tags,
        operationId: 'createSandboxCardToken',
        summary: 'Tokenize a test card',
        description:
          'Card tokenization as a gateway does it from the page: 4242 4242 4242 4242 is approved, 4000 0000 0000 0002 declined.',
        body: z.object({
          number: z.string().max(30),
          holder: z.string().max(100).optional(),
          expiry: z.string().max(7),
          cvv: z.string().max(4),
        }),
        response: { 200: z.object({ token: z.string(), last4: z.string() }) },
      },
    },
    async (request) => {
      const token = tokenizeSandboxCard(request.body, deps.clock.now())
      if (!token) throw new BadRequest('Cartão inválido')
      return token
    },
  )

  // Moving time would end every session and cannot be undone: never in production (SPEC §14).
  if (!deps.config.production) clockControl(app, deps)
}

const clockControl: RouteModule = (app, deps) => {
  app.post(
    '/sandbox/clock/advance',
    {
      config,
      schema: {
        tags,
        operationId: 'advanceSandboxClock',
        summary: 'Move the clock forward',
        description: 'Moves the clock of every process forward (expiry, renewals, cart recovery).',
        body: z.object({
          seconds: z
            .number()
            .int()
            .min(1)
            .max(10 * 365 * 86_400),
        }),
        response: { 200: z.object({ now: z.string() }) },
      },
    },
    async (request) => {
      await deps.clock.advance(request.body.seconds * 1000)
      return { now: deps.clock.now().toISOString() }
    },
  )
}
