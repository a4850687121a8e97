import { type Insertable, sql } from 'kysely'
import type { Executor } from '../../kit/db.ts'
import type { DB } from '../../kit/db-schema.ts'
import { newestFirst, type PageWindow } from '../../kit/http/pagination.ts'

export const coproducersRepo = {
  /** Serializes enrolments of one product, so two of them never both fit under 100 %. */
  async lockProduct(db: Executor, productId: string) {
    await sql`SELECT pg_advisory_xact_lock(hashtextextended(${`coproducers:${productId}`}, 0))`.execute(
      db,
    )
  },

  insert(db: Executor, row: Insertable<DB['coproducers']>) {
    return db
      .insertInto('coproducers')
      .values(row)
      .onConflict((oc) => oc.doNothing())
      .returningAll()
      .executeTakeFirst()
  },

  /** Every co-producer of the product, oldest first (the order splits are taken in). */
  allOf(db: Executor, productId: string) {
    return db
      .selectFrom('coproducers')
      .selectAll()
      .where('product_id', '=', productId)
      .orderBy('created_at')
      .orderBy('id')
      .execute()
  },

  list(db: Executor, productId: string, window: PageWindow) {
    return db
      .selectFrom('coproducers')
      .selectAll()
      .where('product_id', '=', productId)
      .$call(newestFirst(window, { table: 'coproducers', scope: { product_id: productId } }))
      .execute()
  },
}
