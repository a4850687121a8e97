import type { Insertable, Selectable } from 'kysely'
import type { Executor } from '../../kit/db.ts'
import type { DB, OrderStatus } from '../../kit/db-schema.ts'
import { newestFirst, type PageWindow } from '../../kit/http/pagination.ts'
import type { OrderListQuery } from './schema.ts'

export type OrderRow = Selectable<DB['orders']>

export const ordersRepo = {
  insert(db: Executor, row: Insertable<DB['orders']>) {
    return db.insertInto('orders').values(row).returningAll().executeTakeFirstOrThrow()
  },

  findById(db: Executor, id: string) {
    return db.selectFrom('orders').selectAll().where('id', '=', id).executeTakeFirst()
  },

  findForUpdate(db: Executor, id: string) {
    return db.selectFrom('orders').selectAll().where('id', '=', id).forUpdate().executeTakeFirst()
  },

  findInAccountForUpdate(db: Executor, accountId: string, id: string) {
    return db
      .selectFrom('orders')
      .selectAll()
      .where('id', '=', id)
      .where('account_id', '=', accountId)
      .forUpdate()
      .executeTakeFirst()
  },

  findInAccount(db: Executor, accountId: string, id: string) {
    return db
      .selectFrom('orders')
      .selectAll()
      .where('id', '=', id)
      .where('account_id', '=', accountId)
      .executeTakeFirst()
  },

  /** The state machine's guard lives in SQL: only a row in `from` moves, once. */
  transition(
    db: Executor,
    id: string,
    from: OrderStatus,
    patch: Partial<Insertable<DB['orders']>> & { status: OrderStatus },
  ) {
    return db
      .updateTable('orders')
      .set(patch)
      .where('id', '=', id)
      .where('status', '=', from)
      .returningAll()
      .executeTakeFirst()
  },

  async existsForProduct(db: Executor, productId: string) {
    const row = await db
      .selectFrom('orders')
      .select('id')
      .where('product_id', '=', productId)
      .limit(1)
      .executeTakeFirst()
    return Boolean(row)
  },

  list(db: Executor, accountId: string, q: OrderListQuery, window: PageWindow) {
    let query = db.selectFrom('orders').selectAll().where('account_id', '=', accountId)
    if (q.status) query = query.where('status', '=', q.status)
    if (q.product_id) query = query.where('product_id', '=', q.product_id)
    if (q.buyer_email) query = query.where('buyer_email', '=', q.buyer_email)
    if (q.created_from) query = query.where('created_at', '>=', new Date(q.created_from))
    if (q.created_to) query = query.where('created_at', '<', new Date(q.created_to))
    return query
      .$call(newestFirst(window, { table: 'orders', scope: { account_id: accountId } }))
      .execute()
  },

  setExpiry(db: Executor, id: string, expiresAt: Date) {
    return db.updateTable('orders').set({ expires_at: expiresAt }).where('id', '=', id).execute()
  },

  setSubscription(db: Executor, id: string, subscriptionId: string) {
    return db
      .updateTable('orders')
      .set({ subscription_id: subscriptionId })
      .where('id', '=', id)
      .execute()
  },

  /** Pending orders past their expiry (not locked: the expiry locks their charges first). */
  async dueForExpiry(db: Executor, now: Date, limit: number) {
    const rows = await db
      .selectFrom('orders')
      .select('id')
      .where('status', '=', 'pending')
      .where('expires_at', '<=', now)
      .orderBy('expires_at')
      .limit(limit)
      .execute()
    return rows.map((r) => r.id)
  },
}
