// The charge behind an order, for flows after payment (refunds, chargebacks).
import type { Executor, Tx } from '../../kit/db.ts'
import type { DB } from '../../kit/db-schema.ts'
import { paymentsRepo as repo } from './repo.ts'

export const chargeOfOrder = (db: Executor, orderId: string) => repo.latestChargeOf(db, orderId)

/**
 * Locks the order's charge. Gateway callbacks lock the charge before the order; a flow that
 * changes both (a refund completing) does the same, so the two never wait on each other.
 */
export const lockChargeOfOrder = (tx: Tx, orderId: string) =>
  repo.latestChargeForUpdate(tx, orderId)

export async function setChargeStatusOfOrder(
  tx: Tx,
  orderId: string,
  status: DB['charges']['status'],
) {
  const charge = await repo.latestChargeOf(tx, orderId)
  if (charge) await repo.setChargeStatus(tx, charge.id, status)
}
