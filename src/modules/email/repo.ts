import { type Insertable, type RawBuilder, sql } from 'kysely'
import { type Executor, PLANNED_EACH_RUN } from '../../kit/db.ts'
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

/** Born claimed (handoff.ts): leased until `until`; the ids written go to `take` at commit. */
type Born = { until: Date; take: (ids: string[]) => void }

/**
 * The mail insert for one condition (kit/template.ts). The rows come as arrays: one text for any
 * number of them. A born mail is written leased (`attempts = 1`, as a claim leaves it). It
 * returns the ids written: a mail the dedupe key refused returns none.
 */
const mailInsert = fragmentTemplatePer(
  (q, v: MailColumns & { until: Date | null }, onlyIf: RawBuilder<boolean>) =>
    q
      .insertInto('emails')
      .columns([...MAIL_COLUMNS, 'locked_until', 'attempts'])
      .expression(
        sql`SELECT m.*, ${v.until}::timestamptz,
          CASE WHEN ${v.until}::timestamptz IS NULL THEN 0 ELSE 1 END
        FROM unnest(${v.id}::uuid[], ${v.dedupe_key}::text[], ${v.to_address}::text[],
          ${v.subject}::text[], ${v.text_body}::text[], ${v.html_body}::text[], ${v.status}::text[],
          ${v.next_attempt_at}::timestamptz[], ${v.created_at}::timestamptz[]) AS m
        WHERE ${onlyIf}`,
      )
      .onConflict((oc) => oc.column('dedupe_key').doNothing())
      .returning('id'),
)

/** The ids a statement's mail part wrote, as JSON (null: none), read at its end. */
const WRITTEN_IDS = `(SELECT json_agg(id) FROM "mail")`

export const emailRepo = {
  /**
   * New mails, as a part of a statement (kit/statement.ts); with `onlyIf`, only when that holds
   * there. A taken dedupe key writes nothing: one delivery e-mail per order, whatever retries.
   * Born ones (`born`, else null: unclaimed) are leased, and the ids written go to its `take`
   * at commit.
   */
  insertPart(rows: MailRow[], born: Born | null, onlyIf: RawBuilder<boolean> = ALWAYS): Part {
    const column = <C extends keyof MailRow>(c: C) => rows.map((row) => row[c])
    return {
      name: 'mail',
      // Born mails go to the worker at commit, those the insert wrote only.
      ...(born && {
        onCommit: { value: WRITTEN_IDS, take: (ids) => born.take((ids as string[] | null) ?? []) },
      }),
      query: mailInsert(onlyIf)({
        until: born?.until ?? null,
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

  /**
   * Sent, each at its own time; one statement for the batch. Planned on every run: a generic
   * plan made while the outbox was small would read all of it (kit/db.ts, PLANNED_EACH_RUN).
   */
  markSent(db: Executor, sent: { id: string; at: Date }[]) {
    return sql`${sql.raw(PLANNED_EACH_RUN)}UPDATE emails SET status = 'sent', sent_at = s.at,
        locked_until = NULL, last_error = NULL
      FROM unnest(${sent.map((m) => m.id)}::uuid[], ${sent.map((m) => m.at)}::timestamptz[])
        AS s (id, at)
      WHERE emails.id = s.id`.execute(db)
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
