import type { Insertable } from 'kysely'
import type { Executor } from '../../kit/db.ts'
import type { DB } from '../../kit/db-schema.ts'
import { newestFirst, type PageWindow } from '../../kit/http/pagination.ts'

export type AffiliateRow = DB['affiliates']

export const affiliatesRepo = {
  /** Undefined when the code or the (product, user) pair is taken. */
  insert(db: Executor, row: Insertable<DB['affiliates']>) {
    return db
      .insertInto('affiliates')
      .values(row)
      .onConflict((oc) => oc.doNothing())
      .returningAll()
      .executeTakeFirst()
  },

  findByProductUser(db: Executor, productId: string, userId: string) {
    return db
      .selectFrom('affiliates')
      .selectAll()
      .where('product_id', '=', productId)
      .where('user_id', '=', userId)
      .executeTakeFirst()
  },

  findById(db: Executor, id: string) {
    return db.selectFrom('affiliates').selectAll().where('id', '=', id).executeTakeFirst()
  },

  findByCode(db: Executor, productId: string, code: string) {
    return db
      .selectFrom('affiliates')
      .selectAll()
      .where('code', '=', code)
      .where('product_id', '=', productId)
      .executeTakeFirst()
  },

  list(db: Executor, productId: string, window: PageWindow) {
    return db
      .selectFrom('affiliates')
      .selectAll()
      .where('product_id', '=', productId)
      .$call(newestFirst(window, { table: 'affiliates', scope: { product_id: productId } }))
      .execute()
  },

  setCommission(db: Executor, productId: string, id: string, bps: number, at: Date) {
    return db
      .updateTable('affiliates')
      .set({ commission_bps: bps, updated_at: at })
      .where('id', '=', id)
      .where('product_id', '=', productId)
      .returningAll()
      .executeTakeFirst()
  },
}
