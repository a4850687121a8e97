import { type Insertable, type RawBuilder, sql } from 'kysely'
import type { Executor } from '../../kit/db.ts'
import type { DB } from '../../kit/db-schema.ts'
import type { Part } from '../../kit/statement.ts'
import { ALWAYS, fragmentTemplatePer } from '../../kit/template.ts'

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

type MailRow = Required<Pick<Insertable<DB['emails']>, (typeof MAIL_COLUMNS)[number]>>

/** Mail rows as one array per column, in MAIL_COLUMNS' order. */
type MailColumns = { [C in keyof MailRow]: MailRow[C][] }

/**
 * The mail insert for one condition (kit/template.ts). The rows come as arrays: one text for any
 * number of them.
 */
const mailInsert = fragmentTemplatePer((q, v: MailColumns, onlyIf: RawBuilder<boolean>) =>
  q
    .insertInto('emails')
    .columns(MAIL_COLUMNS)
    .expression(
      sql`SELECT * FROM unnest(${v.id}::uuid[], ${v.dedupe_key}::text[], ${v.to_address}::text[],
        ${v.subject}::text[], ${v.text_body}::text[], ${v.html_body}::text[], ${v.status}::text[],
        ${v.next_attempt_at}::timestamptz[], ${v.created_at}::timestamptz[])
      WHERE ${onlyIf}`,
    )
    .onConflict((oc) => oc.column('dedupe_key').doNothing()),
)

export const emailRepo = {
  /**
   * New mails, as a part of a statement (kit/statement.ts); with `onlyIf`, only when that holds
   * there. A taken dedupe key writes nothing: one delivery e-mail per order, whatever retries.
   */
  insertPart(rows: MailRow[], onlyIf: RawBuilder<boolean> = ALWAYS): Part {
    const column = <C extends keyof MailRow>(c: C) => rows.map((row) => row[c])
    return {
      name: 'mail',
      query: mailInsert(onlyIf)({
        id: column('id'),
        dedupe_key: column('dedupe_key'),
        to_address: column('to_address'),
        subject: column('subject'),
        text_body: column('text_body'),
        html_body: column('html_body'),
        status: column('status'),
        next_attempt_at: column('next_attempt_at'),
        created_at: column('created_at'),
      }),
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
