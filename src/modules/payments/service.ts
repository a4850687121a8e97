import type { Deps, Outbox } from '../../deps.ts'
import type { Tx } from '../../kit/db.ts'
import type { PaymentMethod } from '../../kit/db-schema.ts'
import { uuidv7 } from '../../kit/ids.ts'
import type { Part } from '../../kit/statement.ts'
import { recordChargebackAfterRefund } from '../refunds/service.ts'
import { chargebackOrder } from './chargeback.ts'
import { confirmPayment } from './confirm.ts'
import { expireOrder, failOrder } from './expire.ts'
import type { GatewayCharge, ParsedCallback } from './gateway.ts'
import { payAtOnce } from './paid-at-once.ts'
import { type CallbackOutcome, paymentsRepo as repo } from './repo.ts'

/**
 * Applies one authentic gateway callback, inside the caller's transaction. The inbox row makes
 * a repeated notification a no-op; the charge row lock and the order's `pending` guard make
 * concurrent notifications for one charge have one effect.
 */
export async function applyCallback(
  tx: Tx,
  deps: Outbox & Pick<Deps, 'config' | 'log'>,
  gateway: string,
  callback: ParsedCallback,
  {
    lateReturned = true,
    endsTransaction = false,
  }: {
    /**
     * The route's first try passes `false`: a payment of a closed order then records nothing
     * and answers `late_payment_to_return`, so the route gives the money back first and tries
     * again with `true` (one statement fewer per callback than asking the order's state first).
     */
    lateReturned?: boolean
    /** The caller runs nothing more in the transaction: a payment's last statement commits it. */
    endsTransaction?: boolean
  } = {},
): Promise<CallbackOutcome> {
  const now = deps.clock.now()
  const payload = JSON.stringify(callback.payload)
  const inboxRowOf = (outcome: CallbackOutcome) => ({
    id: uuidv7(now.getTime()),
    gateway,
    gateway_event_id: callback.eventId,
    gateway_charge_id: callback.gatewayChargeId,
    action: callback.action,
    outcome,
    payload,
    received_at: now,
  })
  // The usual case in one statement; whatever it does not pay takes the long way below.
  if (
    callback.action === 'paid' &&
    (await payAtOnce(tx, deps, inboxRowOf('paid'), callback.amountCents, { endsTransaction }))
  ) {
    return 'paid'
  }
  const charge = await repo.findChargeForUpdateWithOrder(tx, gateway, callback.gatewayChargeId)
  const outcome = await decide()
  if (outcome === 'late_payment_to_return') return outcome
  const inboxRow = inboxRowOf(outcome)
  if (outcome === 'paid') {
    // The inbox row and the charge's status go in the statement that marks the order paid,
    // which marks it only if the row was new (a repeated notification changes nothing).
    const recorded = {
      parts: repo.callbackParts(inboxRow, { id: charge!.id, status: 'paid' }),
      onlyIf: repo.inboxIsNew,
    }
    if (await confirmPayment(tx, deps, charge!.order_id, recorded)) return 'paid'
    // The order was paid after this callback's lookup read it pending, by a path that took no
    // lock of this charge (one that waited on the lock finds it paid: payAtOnce went first and
    // the lookup came after), so the inbox row it wrote says `paid`. A repeat of one event
    // wrote no row, and this changes nothing.
    await repo.setCallbackOutcome(tx, inboxRow.id, 'duplicate')
    return 'duplicate'
  }
  // A refusal moves the charge too, in the inbox's statement.
  const recorded = await repo.recordCallback(
    tx,
    inboxRow,
    outcome === 'failed' ? { id: charge!.id, status: 'failed' } : undefined,
  )
  if (!recorded) return 'duplicate'
  if (outcome === 'chargeback') {
    return (await chargebackOrder(tx, deps, charge!.order_id)) ? 'chargeback' : 'duplicate'
  }
  if (outcome === 'refund_charged_back') {
    const recorded = await recordChargebackAfterRefund(tx, deps, charge!.order_id)
    if (recorded) await repo.setChargeStatus(tx, charge!.id, 'chargeback')
    return recorded ? outcome : 'duplicate'
  }
  if (outcome === 'expired') {
    return (await expireOrder(tx, deps, charge!.order_id)) ? 'expired' : 'duplicate'
  }
  if (outcome === 'failed') {
    return (await failOrder(tx, deps, charge!.order_id)) ? 'failed' : 'duplicate'
  }
  return outcome

  async function decide(): Promise<CallbackOutcome> {
    if (!charge) return 'unknown_charge'
    const order = { status: charge.order_status, amount_cents: charge.order_amount_cents }
    // A paid order is charged back; a refunded one was paid back already, so the buyer now got
    // the money twice: recorded for the platform to contest.
    if (callback.action === 'chargeback') {
      if (order?.status === 'paid') return 'chargeback'
      return order?.status === 'refunded' ? 'refund_charged_back' : 'ignored'
    }
    if (!['paid', 'expired', 'failed'].includes(callback.action)) return 'ignored'
    if (order?.status !== 'pending') {
      const closed = order?.status === 'expired' || order?.status === 'failed'
      // The route gave the money back before this (late-payments.ts).
      if (!closed || callback.action !== 'paid') return 'duplicate'
      return lateReturned ? 'late_payment_returned' : 'late_payment_to_return'
    }
    if (callback.action === 'expired') return 'expired'
    // A card under review refused: the order fails now rather than at its expiry.
    if (callback.action === 'failed') return 'failed'
    if (
      callback.amountCents !== order.amount_cents ||
      callback.amountCents !== charge.amount_cents
    ) {
      deps.log.warn(
        { orderId: charge.order_id, expected: order.amount_cents, received: callback.amountCents },
        'gateway confirmed a different amount; order left unpaid',
      )
      return 'amount_mismatch'
    }
    return 'paid'
  }
}

/** Our record of a charge the gateway created for an order. */
export function recordCharge(tx: Tx, ctx: Pick<Deps, 'clock'>, input: ChargeRecord) {
  const row = chargeRow(ctx, input)
  const follow = input.followAt && followUp(input.orderId, input.followAt, row.created_at)
  return repo.insertCharge(tx, row, follow)
}

/**
 * The charge of an order written in the same statement (a PIX's checkout, checkout/
 * open-order.ts): its insert as a part; the order's check is the caller's.
 */
export function chargePart(ctx: Pick<Deps, 'clock'>, input: ChargeRecord): Part {
  return repo.chargePart(chargeRow(ctx, input))
}

type ChargeRecord = {
  orderId: string
  gateway: string
  charge: GatewayCharge
  method: PaymentMethod
  amountCents: number
  /** When to look the pending charge up at the gateway (its order's check), if at all. */
  followAt?: Date | undefined
}

/** Our row of the gateway's charge. */
function chargeRow(ctx: Pick<Deps, 'clock'>, input: ChargeRecord) {
  const now = ctx.clock.now()
  const { charge } = input
  return {
    id: uuidv7(now.getTime()),
    order_id: input.orderId,
    gateway: input.gateway,
    gateway_charge_id: charge.gatewayChargeId,
    method: input.method,
    amount_cents: input.amountCents,
    status: charge.status,
    pix_copy_paste: charge.pix?.copyPaste ?? null,
    pix_expires_at: charge.pix?.expiresAt ?? null,
    saved_card: charge.savedCard ?? null,
    created_at: now,
  }
}

/** The reconciliation's look at the order's charge, due at `at` (payments/reconcile.ts). */
const followUp = (orderId: string, at: Date, now: Date) => ({
  id: orderId,
  kind: 'charge' as const,
  at,
  now,
})
