import type { Insertable, Updateable } from 'kysely'
import type { Executor } from '../../kit/db.ts'
import type { DB, RefundStatus } from '../../kit/db-schema.ts'
import { newestFirst, type PageWindow } from '../../kit/http/pagination.ts'
import type { RefundListQuery } from './schema.ts'

export type RefundRow = DB['refunds'] & { attempts: number }

export const refundsRepo = {
  /** Undefined when the order already has a live (pending or completed) refund. */
  insert(db: Executor, row: Insertable<DB['refunds']>) {
    return db
      .insertInto('refunds')
      .values(row)
      .onConflict((oc) => oc.doNothing())
      .returningAll()
      .executeTakeFirst() as Promise<RefundRow | undefined>
  },

  findById(db: Executor, id: string) {
    return db.selectFrom('refunds').selectAll().where('id', '=', id).executeTakeFirst() as Promise<
      RefundRow | undefined
    >
  },

  findInAccount(db: Executor, accountId: string, id: string) {
    return db
      .selectFrom('refunds')
      .selectAll()
      .where('id', '=', id)
      .where('account_id', '=', accountId)
      .executeTakeFirst() as Promise<RefundRow | undefined>
  },

  findLive(db: Executor, orderId: string) {
    return db
      .selectFrom('refunds')
      .selectAll()
      .where('order_id', '=', orderId)
      .where('status', 'in', ['pending', 'completed'])
      .executeTakeFirst() as Promise<RefundRow | undefined>
  },

  /** The state machine's guard in SQL: only a refund in `from` moves, once. */
  transition(
    db: Executor,
    id: string,
    from: RefundStatus,
    patch: Updateable<DB['refunds']> & { status: RefundStatus },
  ) {
    return db
      .updateTable('refunds')
      .set(patch)
      .where('id', '=', id)
      .where('status', '=', from)
      .returningAll()
      .executeTakeFirst() as Promise<RefundRow | undefined>
  },

  /** `attentionAt`: flag it for a person from then on (a flag already set keeps its time). */
  retryLater(db: Executor, id: string, at: Date, error: string, attentionAt: Date | null) {
    return db
      .updateTable('refunds')
      .set((eb) => ({
        next_attempt_at: at,
        locked_until: null,
        last_error: error.slice(0, 1000),
        needs_attention_since: eb.fn.coalesce('needs_attention_since', eb.val(attentionAt)),
      }))
      .where('id', '=', id)
      .where('status', '=', 'pending')
      .execute()
  },

  /** Sets a once-only fact (and `patch`) on a refund in `status`; undefined when already set. */
  markOnce(
    db: Executor,
    id: string,
    status: RefundStatus,
    fact: 'completed_after_failure_at' | 'charged_back_at',
    patch: Updateable<DB['refunds']>,
  ) {
    return db
      .updateTable('refunds')
      .set(patch)
      .where('id', '=', id)
      .where('status', '=', status)
      .where(fact, 'is', null)
      .returningAll()
      .executeTakeFirst() as Promise<RefundRow | undefined>
  },

  setAdminNote(db: Executor, id: string, note: string) {
    return db.updateTable('refunds').set({ admin_note: note }).where('id', '=', id).execute()
  },

  /** Every account's refunds, newest first; `needsAttention` keeps the flagged ones. */
  listAll(db: Executor, q: { needsAttention?: boolean | undefined }, window: PageWindow) {
    let query = db.selectFrom('refunds').selectAll()
    if (q.needsAttention) query = query.where('needs_attention_since', 'is not', null)
    return query.$call(newestFirst(window, { table: 'refunds' })).execute() as Promise<RefundRow[]>
  },

  list(db: Executor, accountId: string, q: RefundListQuery, window: PageWindow) {
    let query = db.selectFrom('refunds').selectAll().where('account_id', '=', accountId)
    if (q.status) query = query.where('status', '=', q.status)
    if (q.order_id) query = query.where('order_id', '=', q.order_id)
    return query
      .$call(newestFirst(window, { table: 'refunds', scope: { account_id: accountId } }))
      .execute() as Promise<RefundRow[]>
  },
}
