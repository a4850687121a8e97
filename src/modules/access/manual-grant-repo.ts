import { sql } from 'kysely'
import type { Executor } from '../../kit/db.ts'

export const manualGrantRepo = {
  /** Serializes grants of one product to one person in one account until the transaction ends. */
  async lockGrantee(db: Executor, accountId: string, buyerId: string, productId: string) {
    const key = `hand-grant:${accountId}:${buyerId}:${productId}`
    await sql`SELECT pg_advisory_xact_lock(hashtext(${key}))`.execute(db)
  },

  async hasActiveAccess(db: Executor, accountId: string, buyerId: string, productId: string) {
    const row = await db
      .selectFrom('access_grants')
      .select('id')
      .where('account_id', '=', accountId)
      .where('buyer_id', '=', buyerId)
      .where('product_id', '=', productId)
      .where('status', '=', 'active')
      .executeTakeFirst()
    return Boolean(row)
  },
}
