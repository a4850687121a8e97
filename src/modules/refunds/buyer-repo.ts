// The live refund (pending or completed) of each of a buyer's orders, by the partial unique
// index that allows one per order. A failed refund is no longer live: the buyer may ask again.
import type { Executor } from '../../kit/db.ts'
import type { RefundRow } from './repo.ts'

export const buyerRefundsRepo = {
  liveOfOrders(db: Executor, orderIds: string[]): Promise<RefundRow[]> {
    if (orderIds.length === 0) return Promise.resolve([])
    return db
      .selectFrom('refunds')
      .selectAll()
      .where('order_id', 'in', orderIds)
      .where('status', 'in', ['pending', 'completed'])
      .execute() as Promise<RefundRow[]>
  },
}
