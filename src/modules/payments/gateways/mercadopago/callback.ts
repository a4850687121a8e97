// Reads a Mercado Pago notification: verify the signature, then read the payment back and say
// what ITS state means. The notification carries only an id and is never taken at its word.
import type { CallbackReading, CallbackRequest } from '../../gateway.ts'
import { chargeOf, type MpPayment } from './charges.ts'
import { type MercadoPagoClient, MpNotFound } from './client.ts'
import { verifySignature } from './signature.ts'
import { callbackActionOf } from './statuses.ts'

export interface CallbackContext {
  client: MercadoPagoClient
  webhookSecret: string
  now: () => Date
}

interface NotificationBody {
  id?: unknown
  type?: unknown
  action?: unknown
  data?: { id?: unknown } | null
}

export async function readMercadoPagoCallback(
  ctx: CallbackContext,
  request: CallbackRequest,
): Promise<CallbackReading | null> {
  const dataId = request.query['data.id']
  const xRequestId = header(request, 'x-request-id')
  const signed = verifySignature(
    { xSignature: header(request, 'x-signature'), xRequestId, dataId },
    ctx.webhookSecret,
    ctx.now(),
  )
  // Unsigned or wrong: this includes legacy IPN copies (`?topic=payment&id=…`), whose signature
  // cannot be checked; the notification URL asks for Webhooks only (`source_news=webhooks`).
  if (!signed) return null

  const body = parseBody(request.rawBody)
  const eventId =
    typeof body?.id === 'number' || typeof body?.id === 'string'
      ? String(body.id)
      : `payment:${dataId}:${xRequestId ?? ''}`
  const type = request.query.type ?? (typeof body?.type === 'string' ? body.type : undefined)
  if (type !== 'payment') {
    return { kind: 'ignored', eventId, why: `Mercado Pago topic ${type ?? 'unknown'}` }
  }
  if (!dataId || !/^\d+$/.test(dataId)) {
    return { kind: 'ignored', eventId, why: 'payment notification without a payment id' }
  }
  // The read-back decides; a throw here (unknown answer) makes the route answer 503 and
  // Mercado Pago deliver again.
  let payment: MpPayment
  try {
    payment = await ctx.client<MpPayment>({ method: 'GET', path: `/v1/payments/${dataId}` })
  } catch (error) {
    // No such payment for our credentials (the panel's "simulate notification" sends made-up
    // ids): nothing to do, and nothing to deliver again.
    if (error instanceof MpNotFound) {
      return { kind: 'ignored', eventId, why: `payment ${dataId} not found at Mercado Pago` }
    }
    throw error
  }
  const charge = chargeOf(payment)
  return {
    kind: 'charge',
    callback: {
      eventId,
      gatewayChargeId: charge.gatewayChargeId,
      action: callbackActionOf(charge.status),
      amountCents: charge.amountCents,
      payload: {
        notification: body,
        payment: {
          id: payment.id,
          status: payment.status,
          status_detail: payment.status_detail ?? null,
          external_reference: payment.external_reference ?? null,
        },
      },
    },
  }
}

function header(request: CallbackRequest, name: string): string | undefined {
  const value = request.headers[name]
  return Array.isArray(value) ? value[0] : value
}

function parseBody(raw: Buffer): NotificationBody | null {
  try {
    const parsed = JSON.parse(raw.toString('utf8')) as unknown
    return typeof parsed === 'object' && parsed !== null ? (parsed as NotificationBody) : null
  } catch {
    return null
  }
}
