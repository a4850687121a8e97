import type { Insertable } from 'kysely'
import type { Executor } from '../../kit/db.ts'
import type { DB } from '../../kit/db-schema.ts'

export const couponsRepo = {
  insert(db: Executor, row: Insertable<DB['coupons']>) {
    return db
      .insertInto('coupons')
      .values(row)
      .onConflict((oc) => oc.columns(['product_id', 'code']).doNothing())
      .returningAll()
      .executeTakeFirst()
  },

  listOf(db: Executor, productId: string) {
    return db
      .selectFrom('coupons')
      .selectAll()
      .where('product_id', '=', productId)
      .orderBy('created_at', 'desc')
      .execute()
  },

  findByCode(db: Executor, productId: string, code: string) {
    return db
      .selectFrom('coupons')
      .selectAll()
      .where('product_id', '=', productId)
      .where('code', '=', code)
      .executeTakeFirst()
  },

  /** Takes one redemption if any is left; undefined when used up (the guard is in SQL). */
  redeem(db: Executor, id: string) {
    return db
      .updateTable('coupons')
      .set((eb) => ({ redemptions: eb('redemptions', '+', 1) }))
      .where('id', '=', id)
      .where((eb) =>
        eb.or([
          eb('max_redemptions', 'is', null),
          eb('redemptions', '<', eb.ref('max_redemptions')),
        ]),
      )
      .returning('id')
      .executeTakeFirst()
  },

  release(db: Executor, productId: string, code: string) {
    return db
      .updateTable('coupons')
      .set((eb) => ({ redemptions: eb('redemptions', '-', 1) }))
      .where('product_id', '=', productId)
      .where('code', '=', code)
      .where('redemptions', '>', 0)
      .execute()
  },

  deleteOf(db: Executor, productId: string) {
    return db.deleteFrom('coupons').where('product_id', '=', productId).execute()
  },
}
