// Lost callbacks (issue 11, point 6): an order whose PIX or boleto was paid at the gateway is
// never left pending because the gateway's notification never reached us. While such an order
// is pending, its gateway check (checks.ts, kind `charge`, id = the order id) looks the charge
// up at the gateway: 5 minutes after it was issued, then with doubling waits (at most every
// 6 hours) until the order's expiry, when the look decides: paid → the order is confirmed;
// still pending → the charge is canceled at the gateway first, then the order expires. The
// expiry worker (jobs.ts) leaves such orders to this look, so no order expires unasked.
//
// What a look finds is applied like a callback (service.ts applyCallback), under an event id of
// its own, so a look and the gateway's late notification have one effect between them.
import type { Selectable } from 'kysely'
import type { Deps } from '../../deps.ts'
import { type Tx, withTx } from '../../kit/db.ts'
import type { DB } from '../../kit/db-schema.ts'
import { findOrder } from '../orders/service.ts'
import type { CheckVerdict } from './checks.ts'
import type { CallbackAction, ClosedChargeStatus, GatewayCharge } from './gateway.ts'
import { paymentsRepo as repo } from './repo.ts'
import { applyCallback } from './service.ts'

/** The first look after the charge was issued (a buyer who pays at once is seen by then). */
export const FIRST_LOOK_MS = 5 * 60_000
/** Waits double from the first look up to this (a boleto due in days is still looked at). */
const LONGEST_WAIT_MS = 6 * 3_600_000

type ChargeRow = Pick<
  Selectable<DB['charges']>,
  'gateway' | 'gateway_charge_id' | 'amount_cents' | 'created_at'
>
type Ctx = Pick<Deps, 'clock'>

/** When to look next: as long again as the charge has existed, within bounds, by expiry. */
export function nextLook(
  ctx: Ctx,
  charge: Pick<ChargeRow, 'created_at'>,
  expiresAt: Date | null,
): Date {
  const now = ctx.clock.now().getTime()
  const age = now - charge.created_at.getTime()
  const wait = Math.min(Math.max(age, FIRST_LOOK_MS), LONGEST_WAIT_MS)
  const at = now + wait
  return new Date(expiresAt ? Math.min(at, expiresAt.getTime()) : at)
}

/**
 * A pending PIX or boleto charge was just recorded for an order: its check is scheduled for the
 * first look (replacing the short look-up an unknown charge answer had opened).
 */
export async function followCharge(
  tx: Tx,
  ctx: Ctx,
  input: { orderId: string; charge: Pick<ChargeRow, 'created_at'>; expiresAt: Date | null },
): Promise<Date> {
  const at = nextLook(ctx, input.charge, input.expiresAt)
  await repo.scheduleCheck(tx, { id: input.orderId, kind: 'charge', at, now: ctx.clock.now() })
  return at
}

/** The gateway's state of a charge as a callback action for our pending order. */
const ACTION_OF: Record<GatewayCharge['status'], CallbackAction | null> = {
  pending: null,
  paid: 'paid',
  // Closed at the gateway without our money: nothing will pay this order any more.
  failed: 'expired',
  canceled: 'expired',
  expired: 'expired',
  // Paid and given back (or disputed) before we ever heard of it: nothing to keep either.
  refunded: 'expired',
  chargeback: 'expired',
}

/** Applies what a look found, once per charge and state (repeated looks are duplicates). */
function applyLook(
  deps: Deps,
  charge: ChargeRow,
  found: { status: string; amountCents: number },
  action: CallbackAction,
) {
  return withTx(deps.db, (tx) =>
    applyCallback(
      tx,
      deps,
      charge.gateway,
      {
        eventId: `lookup:${charge.gateway_charge_id}:${found.status}`,
        gatewayChargeId: charge.gateway_charge_id,
        action,
        amountCents: found.amountCents,
        payload: { source: 'lookup', status: found.status, amount_cents: found.amountCents },
      },
      { endsTransaction: true },
    ),
  )
}

/**
 * One look at the charge of an order that is still pending (the reconciliation worker's, for a
 * check whose order has a charge recorded). An unknown answer throws: the worker looks again
 * with its own backoff, and the order waits past its expiry rather than expire unasked.
 */
export async function lookUpPendingCharge(
  deps: Deps,
  orderId: string,
  charge: ChargeRow,
): Promise<CheckVerdict> {
  const order = await findOrder(deps.db, orderId)
  if (order?.status !== 'pending') return { settled: `order ${order?.status ?? 'not found'}` }
  if (charge.gateway !== deps.gateway.name) {
    return { settled: `charge made by ${charge.gateway}: left to the expiry` }
  }
  const found = await deps.gateway.getCharge(orderId)
  const expired = !!order.expires_at && deps.clock.now() >= order.expires_at
  if (found && found.gatewayChargeId !== charge.gateway_charge_id) {
    deps.log.error(
      { orderId, recorded: charge.gateway_charge_id, found: found.gatewayChargeId },
      'the gateway holds another charge for this order than the one recorded',
    )
    return { settled: 'another charge at the gateway: left to a person' }
  }
  const state = found ? { status: found.status, amountCents: found.amountCents } : null
  const action = state ? ACTION_OF[state.status as GatewayCharge['status']] : 'expired'
  if (action === 'paid') {
    const outcome = await applyLook(deps, charge, state!, 'paid')
    const after = await findOrder(deps.db, orderId)
    if (after?.status !== 'pending') return { settled: `paid at the gateway: ${outcome}` }
    // Paid another amount (now, or at an earlier look: a duplicate): never confirmed; canceled
    // at the expiry, which gives the buyer's money back.
  } else if (action === 'expired') {
    const outcome = await applyLook(deps, charge, state ?? missing(charge), 'expired')
    return { settled: `${state?.status ?? 'no charge'} at the gateway: ${outcome}` }
  }
  if (!expired) {
    const again = nextLook(deps, charge, order.expires_at)
    return { again, note: `${state!.status} at the gateway: looked again later` }
  }
  // Expiry, still unpaid: the charge is closed at the gateway first, so it cannot be paid
  // after the order expired; a payment that slipped in meanwhile is given back by the cancel.
  const closed: ClosedChargeStatus = await deps.gateway.cancelCharge({
    reference: orderId,
    gatewayChargeId: charge.gateway_charge_id,
  })
  const outcome = await applyLook(deps, charge, { status: closed, amountCents: 0 }, 'expired')
  return { settled: `canceled at the gateway (${closed}) at expiry: ${outcome}` }
}

/** A charge the gateway confirms it does not hold (never paid, nothing to cancel). */
const missing = (charge: ChargeRow) => ({ status: 'missing', amountCents: charge.amount_cents })
