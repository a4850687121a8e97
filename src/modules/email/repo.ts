import { type Insertable, sql } from 'kysely'
import type { Executor } from '../../kit/db.ts'
import type { DB } from '../../kit/db-schema.ts'
import type { Part } from '../../kit/statement.ts'

export const emailRepo = {
  /**
   * New mails, as a part of a statement (kit/statement.ts). A taken dedupe key writes nothing:
   * one delivery e-mail per order, whatever retries.
   */
  insertPart(db: Executor, rows: Insertable<DB['emails']>[]): Part {
    return {
      name: 'mail',
      query: db
        .insertInto('emails')
        .values(rows)
        .onConflict((oc) => oc.column('dedupe_key').doNothing()),
    }
  },

  /** One array parameter: the same statement whatever the batch's size. */
  markSent(db: Executor, ids: string[], now: Date) {
    return db
      .updateTable('emails')
      .set({ status: 'sent', sent_at: now, locked_until: null, last_error: null })
      .where('id', '=', sql<string>`ANY(${ids}::uuid[])`)
      .execute()
  },

  markRetry(db: Executor, id: string, error: string, next: Date | null) {
    return db
      .updateTable('emails')
      .set(
        next
          ? { status: 'pending', next_attempt_at: next, locked_until: null, last_error: error }
          : { status: 'failed', locked_until: null, last_error: error },
      )
      .where('id', '=', id)
      .execute()
  },

  list(db: Executor, filter: { to?: string | undefined; limit: number }) {
    let query = db.selectFrom('emails').selectAll()
    if (filter.to) query = query.where('to_address', '=', filter.to)
    return query.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(filter.limit).execute()
  },
}
