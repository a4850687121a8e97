import type { RawBuilder } from 'kysely'
import type { Outbox } from '../../deps.ts'
import type { Executor, Tx } from '../../kit/db.ts'
import { uuidv7 } from '../../kit/ids.ts'
import { type Part, writeParts } from '../../kit/statement.ts'
import { emailRepo as repo } from './repo.ts'

export interface Mail {
  to: string
  subject: string
  text: string
  html: string
}

/** `mailHandoff`: the process's (deps'); a mail is born claimed only when its worker plans it. */
type MailCtx = Pick<Outbox, 'clock' | 'mailHandoff'>

/** Queues a mail in the caller's transaction: it exists exactly when the change does. */
export function queueEmail(tx: Tx, ctx: MailCtx, input: QueuedMail) {
  return queueEmails(tx, ctx, [input])
}

export type QueuedMail = Mail & { dedupeKey?: string }

/** Several mails in one statement (a paid order's delivery mail and its sale notification). */
export async function queueEmails(tx: Tx, ctx: MailCtx, mails: QueuedMail[]) {
  await writeParts(tx, mailParts(ctx, mails))
}

/**
 * queueEmails as a part of a statement the caller writes with others (kit/statement.ts); with
 * `onlyIf`, the mails are written only when that holds in it (a buyer created there).
 */
export function mailParts(ctx: MailCtx, mails: QueuedMail[], onlyIf?: RawBuilder<boolean>): Part[] {
  if (mails.length === 0) return []
  const now = ctx.clock.now()
  const rows = mails.map((input) => ({
    id: uuidv7(now.getTime()),
    dedupe_key: input.dedupeKey ?? null,
    to_address: input.to.toLowerCase(),
    subject: input.subject,
    text_body: input.text,
    html_body: input.html,
    status: 'pending' as const,
    next_attempt_at: now,
    created_at: now,
  }))
  const birth = ctx.mailHandoff.birth(now)
  if (!birth) return [repo.insertPart(rows, null, onlyIf)]
  // The worker gets the mails' content from here, once their commit is done: never read back.
  const take = (written: string[]) =>
    birth.take(
      rows
        .filter((r) => written.includes(r.id))
        .map((r) => ({
          id: r.id,
          to: r.to_address,
          subject: r.subject,
          text: r.text_body,
          html: r.html_body,
        })),
    )
  return [repo.insertPart(rows, { until: birth.until, take }, onlyIf)]
}

export function listEmails(db: Executor, filter: { to?: string | undefined; limit: number }) {
  return repo.list(db, { ...filter, to: filter.to?.toLowerCase() })
}
