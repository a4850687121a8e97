import { type Insertable, sql, type Updateable } from 'kysely'
import type { Executor } from '../../kit/db.ts'
import type { DB } from '../../kit/db-schema.ts'
import type { Part } from '../../kit/statement.ts'
import { fragmentTemplate } from '../../kit/template.ts'

/** A checkout page's session marked converted by the order it made (kit/template.ts). */
const convertSession = fragmentTemplate(
  (q, v: { id: string; productId: string; orderId: string }) =>
    q
      .updateTable('checkout_sessions')
      .set({ order_id: v.orderId })
      .where('id', '=', v.id)
      .where('product_id', '=', v.productId),
)

export const checkoutRepo = {
  /** Serializes session creation per (product, e-mail) so concurrent requests reuse one session. */
  lockSessionKey(db: Executor, productId: string, email: string) {
    return sql`SELECT pg_advisory_xact_lock(hashtext(${`checkout-session:${productId}:${email}`}))`.execute(
      db,
    )
  },

  findReusableSession(db: Executor, productId: string, email: string, since: Date) {
    return db
      .selectFrom('checkout_sessions')
      .selectAll()
      .where('product_id', '=', productId)
      .where('email', '=', email)
      .where('created_at', '>', since)
      .orderBy('created_at', 'desc')
      .limit(1)
      .executeTakeFirst()
  },

  insertSession(db: Executor, row: Insertable<DB['checkout_sessions']>) {
    return db.insertInto('checkout_sessions').values(row).returningAll().executeTakeFirstOrThrow()
  },

  findSession(db: Executor, id: string) {
    return db.selectFrom('checkout_sessions').selectAll().where('id', '=', id).executeTakeFirst()
  },

  updateSession(db: Executor, id: string, patch: Updateable<DB['checkout_sessions']>) {
    return db
      .updateTable('checkout_sessions')
      .set(patch)
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirst()
  },

  /** The patch, unless it would change the session's plan (which must be checked first). */
  updateSessionKeepingPlan(
    db: Executor,
    id: string,
    patch: Updateable<DB['checkout_sessions']> & { plan_id?: string },
  ) {
    const { plan_id: planId, ...rest } = patch
    return db
      .updateTable('checkout_sessions')
      .set(rest)
      .where('id', '=', id)
      .$if(planId !== undefined, (q) => q.where('plan_id', 'is not distinct from', planId!))
      .returning(['id', 'updated_at'])
      .executeTakeFirst()
  },

  convertSessionPart(id: string, productId: string, orderId: string): Part {
    return { name: 'converted', query: convertSession({ id, productId, orderId }) }
  },

  /** Unconverted sessions older than `before` that never got a recovery e-mail, locked. */
  lockDueForRecovery(db: Executor, before: Date, limit: number) {
    return db
      .selectFrom('checkout_sessions')
      .selectAll()
      .where('order_id', 'is', null)
      .where('recovery_sent_at', 'is', null)
      .where('created_at', '<=', before)
      .orderBy('created_at')
      .limit(limit)
      .forUpdate()
      .skipLocked()
      .execute()
  },

  markRecoverySent(db: Executor, id: string, at: Date) {
    return db
      .updateTable('checkout_sessions')
      .set({ recovery_sent_at: at })
      .where('id', '=', id)
      .execute()
  },

  async existsForProduct(db: Executor, productId: string) {
    const row = await db
      .selectFrom('checkout_sessions')
      .select('id')
      .where('product_id', '=', productId)
      .limit(1)
      .executeTakeFirst()
    return Boolean(row)
  },
}
