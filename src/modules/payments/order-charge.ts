// An order's charge as the gateway answered it, recorded by the checkout request or by the
// reconciliation worker: once, under the order's lock, and the order follows it (paid, failed,
// or still pending for PIX and boleto). A charge that reaches an order no longer waiting for
// one is canceled at the gateway, so a buyer is never charged without an order (SPEC §5).
import type { Deps, Outbox } from '../../deps.ts'
import { type Tx, withTx } from '../../kit/db.ts'
import type { OrderStatus } from '../../kit/db-schema.ts'
import { lockOrder, setExpiry } from '../orders/service.ts'
import { endOfDueDate } from './boleto.ts'
import { nextLook } from './charge-lookups.ts'
import { chargeOfOrder } from './charges.ts'
import { openCheck, settleCheck } from './checks.ts'
import { confirmPayment } from './confirm.ts'
import { failOrder } from './expire.ts'
import {
  type ChargeRef,
  type ClosedChargeStatus,
  type GatewayCharge,
  GatewayRefused,
} from './gateway.ts'
import { paymentsRepo as repo } from './repo.ts'
import { recordCharge } from './service.ts'

type Ctx = Outbox & Pick<Deps, 'config'>

/**
 * Recorded (now or earlier) with the order's status after it, or an orphan to cancel. A charge
 * recorded pending is followed at the gateway from `lookAt` on (charge-lookups.ts).
 */
export type ChargeOutcome =
  | { kind: 'recorded'; status: OrderStatus; lookAt?: Date }
  | { kind: 'orphan' }

export async function recordOrderCharge(
  tx: Tx,
  ctx: Ctx,
  input: { orderId: string; gateway: string; charge: GatewayCharge },
): Promise<ChargeOutcome> {
  const { charge } = input
  const order = await repo.lockOrderWithCharge(tx, input.orderId)
  if (!order) return { kind: 'orphan' }
  if (order.known_charge_id !== null) {
    // Recorded meanwhile (reconciliation and the request both had the answer).
    const same = order.known_charge_id === charge.gatewayChargeId
    return same ? { kind: 'recorded', status: order.status } : { kind: 'orphan' }
  }
  if (order.status !== 'pending') return { kind: 'orphan' }
  // A pending PIX or boleto: its callback may never come, so the order's check follows the
  // charge at the gateway from its first look on (scheduled in the charge's own statement).
  const pending = charge.status === 'pending'
  const expiresAt = pending ? chargeExpiry(charge, order.expires_at) : null
  const lookAt = pending
    ? nextLook(ctx, { created_at: ctx.clock.now() }, expiresAt ?? order.expires_at)
    : undefined
  await recordCharge(tx, ctx, {
    orderId: order.id,
    gateway: input.gateway,
    charge,
    method: order.payment_method,
    amountCents: order.amount_cents,
    followAt: lookAt,
  })
  if (charge.status === 'paid') {
    // The payment settles the order's check (confirm.ts).
    await confirmPayment(tx, ctx, order.id)
    return { kind: 'recorded', status: 'paid' }
  }
  if (!pending) {
    await settleCheck(tx, ctx, order.id, `charge recorded (${charge.status})`)
    await failOrder(tx, ctx, order.id)
    return { kind: 'recorded', status: 'failed' }
  }
  // A PIX charge usually keeps the expiry the order was written with: no update then.
  if (expiresAt && expiresAt.getTime() !== order.expires_at?.getTime())
    await setExpiry(tx, order.id, expiresAt)
  return { kind: 'recorded', status: 'pending', lookAt }
}

/** The checkout's record of its order's charge, in a transaction that locks the order and decides. */
export function recordCheckoutCharge(
  deps: Ctx & Pick<Deps, 'db'>,
  input: { orderId: string; gateway: string; charge: GatewayCharge },
): Promise<ChargeOutcome> {
  return withTx(deps.db, (tx) => recordOrderCharge(tx, deps, input))
}

/**
 * When a pending order stops being payable. PIX: Vitrine's own expiry, never later (a charge
 * read back from a gateway may carry only an approximate one, such as the end of its due day).
 * Boleto: the end of its due date.
 */
export function chargeExpiry(charge: GatewayCharge, orderExpiry: Date | null): Date | null {
  if (charge.boleto) return endOfDueDate(charge.boleto.dueDate)
  if (!charge.pix) return null
  const pix = charge.pix.expiresAt
  return orderExpiry && orderExpiry < pix ? orderExpiry : pix
}

/** A pending order the gateway holds no charge for ends failed; false when that is not so. */
export async function failUnchargedOrder(tx: Tx, ctx: Outbox, orderId: string) {
  const order = await lockOrder(tx, orderId)
  if (order?.status !== 'pending' || (await chargeOfOrder(tx, orderId))) return false
  return failOrder(tx, ctx, orderId)
}

/**
 * Where the charge ended; `refused` when the gateway answered it would not cancel it (a person
 * looks: logged); null when the answer is unknown (the caller leaves it to reconciliation).
 */
export async function cancelAtGateway(
  deps: Pick<Deps, 'gateway' | 'log'>,
  ref: ChargeRef,
): Promise<ClosedChargeStatus | { refused: string } | null> {
  try {
    const status = await deps.gateway.cancelCharge(ref)
    deps.log.warn({ ...ref, status }, 'charge that no order takes canceled at the gateway')
    return status
  } catch (error) {
    if (error instanceof GatewayRefused) {
      deps.log.error(
        { ...ref, reason: error.reason },
        'gateway refused to cancel a charge without an order',
      )
      return { refused: error.reason }
    }
    deps.log.error({ err: error, ...ref }, 'cancel of a charge without an order: answer unknown')
    return null
  }
}

/**
 * A charge no order will take (our side failed after the gateway charged, or the order closed
 * meanwhile): canceled at the gateway, outside any transaction, then the order ends failed if
 * it still waits (its coupon goes back). When the cancel's answer is unknown, the order's check
 * stays open and reconciliation cancels it; a refused cancel is not asked again (its reason is
 * logged for a person). Returns whether the gateway confirmed.
 */
export async function dropCharge(deps: Deps, ref: ChargeRef): Promise<boolean> {
  const closed = await cancelAtGateway(deps, ref)
  await withTx(deps.db, async (tx) => {
    await failUnchargedOrder(tx, deps, ref.reference)
    if (closed === null)
      await openCheck(tx, deps, { id: ref.reference, kind: 'charge', afterMs: 0 })
    else if (typeof closed === 'object')
      await settleCheck(tx, deps, ref.reference, `cancel refused by the gateway: ${closed.refused}`)
    else await settleCheck(tx, deps, ref.reference, `charge canceled (${closed})`)
  })
  return typeof closed === 'string'
}
