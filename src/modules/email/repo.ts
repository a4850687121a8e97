import { type Insertable, type RawBuilder, sql } from 'kysely'
import type { Executor } from '../../kit/db.ts'
import type { DB } from '../../kit/db-schema.ts'
import type { Part } from '../../kit/statement.ts'

const MAIL_COLUMNS = [
  'id',
  'dedupe_key',
  'to_address',
  'subject',
  'text_body',
  'html_body',
  'status',
  'next_attempt_at',
  'created_at',
] as const

/** A mail row as a typed VALUES row, in MAIL_COLUMNS' order. */
const mailValues = (row: Insertable<DB['emails']>) =>
  sql`(${sql.join([
    sql`${row.id}::uuid`,
    sql`${row.dedupe_key ?? null}::text`,
    sql`${row.to_address}::text`,
    sql`${row.subject}::text`,
    sql`${row.text_body}::text`,
    sql`${row.html_body}::text`,
    sql`${row.status}::text`,
    sql`${row.next_attempt_at}::timestamptz`,
    sql`${row.created_at}::timestamptz`,
  ])})`

export const emailRepo = {
  /**
   * New mails, as a part of a statement (kit/statement.ts); with `onlyIf`, only when that holds
   * there. A taken dedupe key writes nothing: one delivery e-mail per order, whatever retries.
   */
  insertPart(db: Executor, rows: Insertable<DB['emails']>[], onlyIf?: RawBuilder<boolean>): Part {
    const insert = db.insertInto('emails')
    const values = onlyIf
      ? insert
          .columns(MAIL_COLUMNS)
          .expression(
            sql`SELECT * FROM (VALUES ${sql.join(rows.map(mailValues))}) AS v WHERE ${onlyIf}`,
          )
      : insert.values(rows)
    return {
      name: 'mail',
      query: values.onConflict((oc) => oc.column('dedupe_key').doNothing()),
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
