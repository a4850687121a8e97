import type { Clock } from '../../kit/clock.ts'
import type { Executor, Tx } from '../../kit/db.ts'
import { uuidv7 } from '../../kit/ids.ts'
import { emailRepo as repo } from './repo.ts'

export interface Mail {
  to: string
  subject: string
  text: string
  html: string
}

/** Queues a mail in the caller's transaction: it exists exactly when the change does. */
export async function queueEmail(
  tx: Tx,
  ctx: { clock: Clock },
  input: Mail & { dedupeKey?: string },
) {
  const now = ctx.clock.now()
  await repo.insert(tx, {
    id: uuidv7(now.getTime()),
    dedupe_key: input.dedupeKey ?? null,
    to_address: input.to.toLowerCase(),
    subject: input.subject,
    text_body: input.text,
    html_body: input.html,
    status: 'pending',
    next_attempt_at: now,
    created_at: now,
  })
}

export function listEmails(db: Executor, filter: { to?: string | undefined; limit: number }) {
  return repo.list(db, { ...filter, to: filter.to?.toLowerCase() })
}
