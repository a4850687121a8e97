// A buyer's own orders (the members area), by `orders_buyer_idx`. Apart from repo.ts, which
// another change is reshaping; same rule: SQL on the orders table only.
import type { Executor } from '../../kit/db.ts'
import { newestFirst, type PageWindow } from '../../kit/http/pagination.ts'
import type { OrderRow } from './repo.ts'

export const buyerOrdersRepo = {
  /** Newest first; the cursor row is looked up among the same buyer's orders. */
  listOfBuyer(db: Executor, buyerId: string, window: PageWindow): Promise<OrderRow[]> {
    return db
      .selectFrom('orders')
      .selectAll()
      .where('buyer_id', '=', buyerId)
      .$call(newestFirst(window, { table: 'orders', scope: { buyer_id: buyerId } }))
      .execute()
  },

  /** The order when it is this buyer's; undefined for anyone else's (a 404 to the caller). */
  findOfBuyer(db: Executor, buyerId: string, orderId: string): Promise<OrderRow | undefined> {
    return db
      .selectFrom('orders')
      .selectAll()
      .where('id', '=', orderId)
      .where('buyer_id', '=', buyerId)
      .executeTakeFirst()
  },
}
