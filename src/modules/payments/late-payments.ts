// A payment that reaches an order already closed (its PIX expired while the buyer paid, a card
// review outlasted the order, a charge kept after the order failed): the buyer paid for nothing,
// so the money goes back at the gateway before the notification is recorded. When the cancel's
// answer is unknown nothing is recorded and the route answers 503: the gateway delivers the
// notification again and the cancel is asked again (idempotent per charge).
import type { Deps } from '../../deps.ts'
import { AppError } from '../../kit/errors.ts'
import type { ParsedCallback } from './gateway.ts'
import { cancelAtGateway } from './order-charge.ts'
import { paymentsRepo as repo } from './repo.ts'

const CLOSED_UNPAID = new Set(['expired', 'failed'])

/** True when the callback paid a closed order and the gateway gave the money back. */
export async function returnLatePayment(deps: Deps, callback: ParsedCallback): Promise<boolean> {
  if (callback.action !== 'paid') return false
  const order = await repo.orderOfCharge(deps.db, deps.gateway.name, callback.gatewayChargeId)
  if (!order || !CLOSED_UNPAID.has(order.status)) return false
  const ref = { reference: order.id, gatewayChargeId: callback.gatewayChargeId }
  const closed = await cancelAtGateway(deps, ref)
  if (!closed) throw new AppError(503, 'Gateway indisponível; tente novamente', 'unavailable')
  return true
}
