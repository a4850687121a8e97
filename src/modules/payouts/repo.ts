import type { Insertable, Updateable } from 'kysely'
import type { Executor } from '../../kit/db.ts'
import type { DB, WithdrawalRole, WithdrawalStatus } from '../../kit/db-schema.ts'
import { newestFirst, type PageWindow } from '../../kit/http/pagination.ts'

export type PixKeyRow = DB['pix_keys']
export type WithdrawalRow = DB['withdrawals']

export const payoutsRepo = {
  findPixKey(db: Executor, userId: string) {
    return db.selectFrom('pix_keys').selectAll().where('user_id', '=', userId).executeTakeFirst()
  },

  /** Inserts or replaces the user's key (the row is locked by the upsert until commit). */
  upsertPixKey(db: Executor, row: Insertable<DB['pix_keys']>) {
    return db
      .insertInto('pix_keys')
      .values(row)
      .onConflict((oc) =>
        oc.column('user_id').doUpdateSet({
          pix_key: row.pix_key,
          pix_key_type: row.pix_key_type,
          status: row.status,
          rejection_reason: null,
          reviewed_by: null,
          reviewed_at: null,
          updated_at: row.updated_at,
        }),
      )
      .returningAll()
      .executeTakeFirstOrThrow()
  },

  reviewPixKey(db: Executor, userId: string, patch: Updateable<DB['pix_keys']>) {
    return db
      .updateTable('pix_keys')
      .set(patch)
      .where('user_id', '=', userId)
      .returningAll()
      .executeTakeFirst()
  },

  listPixKeys(db: Executor, filter: { status?: PixKeyRow['status'] | undefined } & PageWindow) {
    let query = db
      .selectFrom('pix_keys')
      .innerJoin('users', 'users.id', 'pix_keys.user_id')
      .selectAll('pix_keys')
      .select(['users.name', 'users.email'])
    if (filter.status) query = query.where('pix_keys.status', '=', filter.status)
    return query
      .$call(newestFirst(filter, { table: 'pix_keys', time: 'updated_at', id: 'user_id' }))
      .execute()
  },

  /** The pending withdrawal of a creator account, or of a co-producer / affiliate. */
  findPending(
    db: Executor,
    who: { role: WithdrawalRole; accountId: string | null; userId: string },
  ) {
    let query = db
      .selectFrom('withdrawals')
      .select('id')
      .where('status', '=', 'pending')
      .where('role', '=', who.role)
    query =
      who.role === 'creator'
        ? query.where('account_id', '=', who.accountId)
        : query.where('user_id', '=', who.userId)
    return query.executeTakeFirst()
  },

  /** Undefined when a pending one already exists (the partial unique indexes). */
  insert(db: Executor, row: Insertable<DB['withdrawals']>) {
    return db
      .insertInto('withdrawals')
      .values(row)
      .onConflict((oc) => oc.doNothing())
      .returningAll()
      .executeTakeFirst()
  },

  lock(db: Executor, id: string) {
    return db
      .selectFrom('withdrawals')
      .selectAll()
      .where('id', '=', id)
      .forUpdate()
      .executeTakeFirst()
  },

  findById(db: Executor, id: string) {
    return db.selectFrom('withdrawals').selectAll().where('id', '=', id).executeTakeFirst()
  },

  update(db: Executor, id: string, patch: Updateable<DB['withdrawals']>) {
    return db
      .updateTable('withdrawals')
      .set(patch)
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirstOrThrow()
  },

  /** The admin's queue: withdrawals still to decide or to pay, oldest first, with the requester. */
  findByEndToEndId(db: Executor, endToEndId: string) {
    return db
      .selectFrom('withdrawals')
      .select('id')
      .where('end_to_end_id', '=', endToEndId)
      .executeTakeFirst()
  },

  listOpen(db: Executor, limit: number) {
    return db
      .selectFrom('withdrawals')
      .innerJoin('users', 'users.id', 'withdrawals.user_id')
      .selectAll('withdrawals')
      .select(['users.name', 'users.email'])
      .where('withdrawals.status', 'in', ['pending', 'approved'])
      .orderBy('withdrawals.created_at', 'asc')
      .orderBy('withdrawals.id', 'asc')
      .limit(limit)
      .execute()
  },

  list(
    db: Executor,
    filter: { userId?: string | undefined; status?: WithdrawalStatus | undefined } & PageWindow,
  ) {
    let query = db.selectFrom('withdrawals').selectAll()
    if (filter.userId) query = query.where('user_id', '=', filter.userId)
    if (filter.status) query = query.where('status', '=', filter.status)
    const scope: Record<string, string> = filter.userId ? { user_id: filter.userId } : {}
    return query.$call(newestFirst(filter, { table: 'withdrawals', scope })).execute()
  },
}
