import type { Insertable } from 'kysely'
import type { Executor } from '../../kit/db.ts'
import type { DB } from '../../kit/db-schema.ts'

export const paymentsRepo = {
  insertCharge(db: Executor, row: Insertable<DB['charges']>) {
    return db.insertInto('charges').values(row).returningAll().executeTakeFirstOrThrow()
  },

  /** Locks the charge so concurrent callbacks for it queue up instead of racing. */
  findChargeForUpdate(db: Executor, gateway: string, gatewayChargeId: string) {
    return db
      .selectFrom('charges')
      .selectAll()
      .where('gateway', '=', gateway)
      .where('gateway_charge_id', '=', gatewayChargeId)
      .forUpdate()
      .executeTakeFirst()
  },

  setChargeStatus(db: Executor, id: string, status: DB['charges']['status']) {
    return db.updateTable('charges').set({ status }).where('id', '=', id).execute()
  },

  latestChargeForUpdate(db: Executor, orderId: string) {
    return db
      .selectFrom('charges')
      .selectAll()
      .where('order_id', '=', orderId)
      .orderBy('created_at', 'desc')
      .limit(1)
      .forUpdate()
      .executeTakeFirst()
  },

  latestChargeOf(db: Executor, orderId: string) {
    return db
      .selectFrom('charges')
      .selectAll()
      .where('order_id', '=', orderId)
      .orderBy('created_at', 'desc')
      .limit(1)
      .executeTakeFirst()
  },

  /** The inbox: records a callback once per gateway event id; undefined for a repeat. */
  recordCallback(db: Executor, row: Insertable<DB['payment_callbacks']>) {
    return db
      .insertInto('payment_callbacks')
      .values(row)
      .onConflict((oc) => oc.columns(['gateway', 'gateway_event_id']).doNothing())
      .returning('id')
      .executeTakeFirst()
  },

  expireChargesOf(db: Executor, orderId: string) {
    return db
      .updateTable('charges')
      .set({ status: 'expired' })
      .where('order_id', '=', orderId)
      .where('status', '=', 'pending')
      .execute()
  },
}
