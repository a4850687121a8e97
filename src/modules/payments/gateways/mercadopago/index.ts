// The Mercado Pago adapter (PAYMENT_GATEWAY=mercadopago): `/v1/payments` for PIX, boleto and
// card (tokenized in the browser by MercadoPago.js), refunds, and signed notifications read back.
// Mercado Pago's books are the truth: no table of ours; every create is keyed by our reference.
// What the API documents: docs/gateways/mercadopago.md; what this adapter decides: its
// "Adapter" section.
import type { Clock } from '../../../../kit/clock.ts'
import { toCents } from '../../../../kit/money.ts'
import {
  type ChargeRef,
  type ClosedChargeStatus,
  type GatewayCharge,
  GatewayRefused,
  type PaymentGateway,
} from '../../gateway.ts'
import { readMercadoPagoCallback } from './callback.ts'
import { chargeOf, createPaymentBody, type MpPayment } from './charges.ts'
import { createMercadoPagoClient, type MercadoPagoClient } from './client.ts'
import { findRefund, refundPayment } from './refunds.ts'

export { formatCardToken, parseCardToken } from './card-token.ts'

/** Where MercadoPago.js lives; tests point it at the fake's stand-in (`${fake.url}/js/v2`). */
export const MERCADOPAGO_JS_URL = 'https://sdk.mercadopago.com/js/v2'

export interface MercadoPagoSettings {
  apiUrl: string
  accessToken: string
  publicKey: string
  webhookSecret: string
  /** MercadoPago.js for the checkout page (MERCADOPAGO_JS_URL); the official one by default. */
  jsUrl?: string | undefined
}

export interface MercadoPagoDeps {
  config: { baseUrl: string; mercadoPago: MercadoPagoSettings | null }
  clock: Pick<Clock, 'now'>
  log?: { warn(obj: object, msg: string): void } | undefined
  /** Overrides `config.mercadoPago.jsUrl` (MERCADOPAGO_JS_URL), for tests. */
  scriptUrl?: string | undefined
  /** Per-request time-out; 10 s unless a test shortens it. */
  timeoutMs?: number | undefined
}

export const CALLBACK_PATH = '/api/payments/callback/mercadopago'

export function createMercadoPagoGateway(deps: MercadoPagoDeps): PaymentGateway {
  const settings = deps.config.mercadoPago
  if (!settings)
    throw new Error('MERCADOPAGO_ACCESS_TOKEN is required when PAYMENT_GATEWAY=mercadopago')
  const client = createMercadoPagoClient({
    apiUrl: settings.apiUrl,
    accessToken: settings.accessToken,
    timeoutMs: deps.timeoutMs,
  })
  // `source_news=webhooks`: Webhooks only, no legacy IPN copies (which cannot be verified).
  // Read at each charge: BASE_URL may follow the port the service listens on (known later).
  const notificationUrl = () =>
    `${deps.config.baseUrl.replace(/\/+$/, '')}${CALLBACK_PATH}?source_news=webhooks`

  return {
    name: 'mercadopago',
    cardEntry: {
      kind: 'browser-token',
      scriptUrl: deps.scriptUrl ?? settings.jsUrl ?? MERCADOPAGO_JS_URL,
      publicKey: settings.publicKey,
    },
    // No saved cards (that needs Mercado Pago customers): subscriptions are paid by PIX or boleto.
    capabilities: { savesCards: false, boletoNeedsAddress: true },

    async createCharge(input) {
      // The order id is the idempotency key: a retry (same body) gets the first payment back.
      const payment = await client<MpPayment>({
        method: 'POST',
        path: '/v1/payments',
        body: createPaymentBody(input, { notificationUrl: notificationUrl() }),
        idempotencyKey: input.reference,
      })
      const charge = chargeOf(payment)
      // The buyer sees Vitrine's own expiry; Mercado Pago's may be a little later (pixExpiryFor).
      return charge.pix ? { ...charge, pix: { ...charge.pix, expiresAt: input.expiresAt } } : charge
    },

    getCharge: (reference) => findPayment(client, reference).then((p) => (p ? chargeOf(p) : null)),

    cancelCharge: (ref) => cancelPayment(client, ref, deps),

    refund: (input) => refundPayment(client, input),

    getRefund: (ref) => findRefund(client, ref),

    readCallback: (request) =>
      readMercadoPagoCallback(
        { client, webhookSecret: settings.webhookSecret, now: () => deps.clock.now() },
        request,
      ),
  }
}

/** The newest payment made for our reference (one per order: the key is the order id). */
async function findPayment(client: MercadoPagoClient, reference: string) {
  const query = new URLSearchParams({
    external_reference: reference,
    sort: 'date_created',
    criteria: 'desc',
  })
  const found = await client<{ results?: MpPayment[] }>({
    method: 'GET',
    path: `/v1/payments/search?${query}`,
  })
  // Only a payment of ours counts: a search that ignored the filter must not answer for us.
  return found.results?.find((p) => p.external_reference === reference) ?? null
}

const PAYMENT_IN_DISPUTE =
  'O pagamento está em disputa no Mercado Pago e não pode ser cancelado agora'

/**
 * A payment still waiting is canceled (`PUT {"status":"cancelled"}`); an approved one is refunded
 * in full (a card's authorization is captured at once, so there is nothing to void). A payment
 * that moved meanwhile (a PIX paid as we cancel) is read again and closed by what it became.
 */
async function cancelPayment(
  client: MercadoPagoClient,
  ref: ChargeRef,
  deps: MercadoPagoDeps,
): Promise<ClosedChargeStatus> {
  const path = paymentPath(ref.gatewayChargeId)
  for (let attempt = 1; ; attempt++) {
    const payment = await client<MpPayment>({ method: 'GET', path })
    try {
      return await closeCharge(client, ref, payment)
    } catch (error) {
      if (!(error instanceof GatewayRefused) || error.blame !== 'input' || attempt >= 2) throw error
      deps.log?.warn(
        { ...ref, reason: error.reason },
        'Mercado Pago refused a cancel; reading again',
      )
    }
  }
}

async function closeCharge(
  client: MercadoPagoClient,
  ref: ChargeRef,
  payment: MpPayment,
): Promise<ClosedChargeStatus> {
  const path = paymentPath(ref.gatewayChargeId)
  const charge = chargeOf(payment)
  if (charge.status === 'pending') {
    const canceled = await client<MpPayment>({
      method: 'PUT',
      path,
      body: { status: 'cancelled' },
      idempotencyKey: `${ref.reference}:cancel`,
    })
    return closed(chargeOf(canceled).status)
  }
  if (charge.status === 'paid') {
    // In mediation (a dispute) also reads as paid, and Mercado Pago refuses a refund then.
    const refund = await refundPayment(client, {
      reference: `${ref.reference}:void`,
      gatewayChargeId: ref.gatewayChargeId,
      // What is left: an earlier partial refund already went back to the buyer.
      amountCents: charge.amountCents - toCents(payment.transaction_amount_refunded ?? 0),
    })
    if (refund.status === 'failed') {
      throw new GatewayRefused(refund.failureReason ?? PAYMENT_IN_DISPUTE, 'input')
    }
    return 'refunded'
  }
  return closed(charge.status)
}

function paymentPath(gatewayChargeId: string): string {
  if (!/^\d+$/.test(gatewayChargeId)) {
    throw new GatewayRefused('Referência de pagamento do Mercado Pago inválida', 'input')
  }
  return `/v1/payments/${gatewayChargeId}`
}

function closed(status: GatewayCharge['status']): ClosedChargeStatus {
  if (status === 'pending' || status === 'paid') {
    throw new Error(`Mercado Pago payment still ${status} after a cancel`)
  }
  return status
}
