// A buyer's own subscriptions (the members area). Found through the buyer's orders (each
// subscription has one first order, unique-indexed), so no index on buyer_id is needed.
import type { Executor } from '../../kit/db.ts'
import type { SubscriptionRow } from './repo.ts'

export const buyerSubscriptionsRepo = {
  listOfBuyer(db: Executor, buyerId: string): Promise<SubscriptionRow[]> {
    return db
      .selectFrom('subscriptions')
      .selectAll('subscriptions')
      .where(
        'first_order_id',
        'in',
        db.selectFrom('orders').select('orders.id').where('orders.buyer_id', '=', buyerId),
      )
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .execute()
  },

  findOfBuyer(db: Executor, buyerId: string, id: string): Promise<SubscriptionRow | undefined> {
    return db
      .selectFrom('subscriptions')
      .selectAll()
      .where('id', '=', id)
      .where('buyer_id', '=', buyerId)
      .executeTakeFirst()
  },
}
