import { type Insertable, sql, type Updateable } from 'kysely'
import type { Executor } from '../../kit/db.ts'
import type { SubscriptionStatus, SubscriptionsTable } from '../../kit/db-schema.ts'
import { newestFirst, type PageWindow } from '../../kit/http/pagination.ts'

export type SubscriptionRow = Omit<SubscriptionsTable, 'cancel_at_period_end'> & {
  cancel_at_period_end: boolean
}

export const subscriptionsRepo = {
  insert(db: Executor, row: Insertable<SubscriptionsTable>) {
    return db
      .insertInto('subscriptions')
      .values(row)
      .returningAll()
      .executeTakeFirstOrThrow() as Promise<SubscriptionRow>
  },

  findForUpdate(db: Executor, id: string) {
    return db
      .selectFrom('subscriptions')
      .selectAll()
      .where('id', '=', id)
      .forUpdate()
      .executeTakeFirst() as Promise<SubscriptionRow | undefined>
  },

  find(db: Executor, id: string) {
    return db
      .selectFrom('subscriptions')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirst() as Promise<SubscriptionRow | undefined>
  },

  findInAccount(db: Executor, accountId: string, id: string) {
    return db
      .selectFrom('subscriptions')
      .selectAll()
      .where('id', '=', id)
      .where('account_id', '=', accountId)
      .executeTakeFirst() as Promise<SubscriptionRow | undefined>
  },

  update(db: Executor, id: string, patch: Updateable<SubscriptionsTable>) {
    return db
      .updateTable('subscriptions')
      .set(patch)
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirstOrThrow() as Promise<SubscriptionRow>
  },

  list(
    db: Executor,
    accountId: string,
    filter: { status?: SubscriptionStatus | undefined; product_id?: string | undefined },
    window: PageWindow,
  ) {
    let query = db.selectFrom('subscriptions').selectAll().where('account_id', '=', accountId)
    if (filter.status) query = query.where('status', '=', filter.status)
    if (filter.product_id) query = query.where('product_id', '=', filter.product_id)
    return query
      .$call(newestFirst(window, { table: 'subscriptions', scope: { account_id: accountId } }))
      .execute() as Promise<SubscriptionRow[]>
  },

  /**
   * Subscriptions whose next step is due, unlocked: the worker locks each in the lock order.
   * The status is a literal in the text, not a parameter, so that a generic plan can use the
   * partial index (test/kit/db.test.ts).
   */
  findDue(db: Executor, now: Date, limit: number) {
    return db
      .selectFrom('subscriptions')
      .select(['id', 'renewal_order_id'])
      .where('status', '<>', sql.lit('canceled'))
      .where('next_action_at', '<=', now)
      .orderBy('next_action_at')
      .limit(limit)
      .execute()
  },

  /** Locks one subscription if its next step is still due; another worker's row is skipped. */
  lockIfDue(db: Executor, id: string, now: Date) {
    return db
      .selectFrom('subscriptions')
      .selectAll()
      .where('id', '=', id)
      .where('status', '<>', 'canceled')
      .where('next_action_at', '<=', now)
      .forUpdate()
      .skipLocked()
      .executeTakeFirst() as Promise<SubscriptionRow | undefined>
  },
}
