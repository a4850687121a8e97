// Asaas notifications (`POST` with `asaas-access-token`, body `{ id, event, payment | transfer
// }`). The token is compared in constant time; the event's word is never trusted: the payment
// or transfer is read back and ITS state is what we say. The event `id` is the dedupe key
// (delivery is at least once). Two short reads at most, so Asaas gets its 200 fast.
import { safeEqual } from '../../../../kit/crypto.ts'
import type { CallbackReading, CallbackRequest } from '../../gateway.ts'
import { type AsaasJson, AsaasRefused } from './client.ts'
import type { AsaasContext } from './context.ts'
import { groupCents, groupStatus, paymentPath, readGroup } from './payments.ts'
import { required, text } from './read.ts'
import { callbackActionOf } from './statuses.ts'
import { transferResult } from './transfers.ts'

export const ASAAS_TOKEN_HEADER = 'asaas-access-token'

/** True when the request carries our webhook token. */
export function hasAsaasToken(ctx: AsaasContext, headers: CallbackRequest['headers']): boolean {
  const token = headers[ASAAS_TOKEN_HEADER]
  return typeof token === 'string' && safeEqual(token, ctx.settings.webhookToken)
}

function parse(rawBody: Buffer): AsaasJson | null {
  try {
    const body = JSON.parse(rawBody.toString('utf8'))
    return typeof body === 'object' && body !== null && !Array.isArray(body) ? body : null
  } catch {
    return null
  }
}

/** A read-back of something Asaas no longer has (404): nothing to act on. */
async function readOrNull(ctx: AsaasContext, path: string): Promise<AsaasJson | null> {
  try {
    return await ctx.client.get(path)
  } catch (error) {
    if (error instanceof AsaasRefused && error.status === 404) return null
    throw error
  }
}

/**
 * `transfersOnly`: the payout provider's reader, when another gateway takes the payments (its
 * charges are not ours to record, whatever this Asaas account also charges).
 */
export async function readAsaasCallback(
  ctx: AsaasContext,
  request: CallbackRequest,
  options: { transfersOnly?: boolean } = {},
): Promise<CallbackReading | null> {
  if (!hasAsaasToken(ctx, request.headers)) return null
  const body = parse(request.rawBody)
  const eventId = body && text(body.id)
  const event = body && text(body.event)
  if (!body || !eventId || !event) return { kind: 'ignored', eventId, why: 'not an Asaas event' }
  const objectOf = (field: string) => {
    const value = body[field]
    return typeof value === 'object' && value !== null ? text((value as AsaasJson).id) : null
  }

  const paymentId =
    event.startsWith('PAYMENT_') && !options.transfersOnly ? objectOf('payment') : null
  if (paymentId) {
    const payment = await readOrNull(ctx, paymentPath(paymentId))
    // Charges made outside Vitrine (in the panel) carry no order of ours.
    if (!payment || !text(payment.externalReference))
      return { kind: 'ignored', eventId, why: `${event}: not a charge of ours` }
    const group = await readGroup(ctx, payment)
    return {
      kind: 'charge',
      callback: {
        eventId,
        gatewayChargeId: required(group[0]!, 'id'),
        action: callbackActionOf(groupStatus(ctx, group)),
        amountCents: groupCents(group),
        // What the event said, without its snapshot (which holds the buyer's data).
        payload: { id: eventId, event, dateCreated: body.dateCreated ?? null, payment: paymentId },
      },
    }
  }

  const transferId = event.startsWith('TRANSFER_') ? objectOf('transfer') : null
  if (transferId) {
    const transfer = await readOrNull(ctx, `/transfers/${encodeURIComponent(transferId)}`)
    const reference = transfer && text(transfer.externalReference)
    if (!transfer || !reference)
      return { kind: 'ignored', eventId, why: `${event}: not a payout of ours` }
    return { kind: 'transfer', eventId, reference, result: transferResult(ctx, transfer) }
  }

  return { kind: 'ignored', eventId, why: `${event}: not an event Vitrine acts on` }
}
