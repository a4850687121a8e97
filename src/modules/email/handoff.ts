// Mails born claimed (kit/handoff.ts): when this process runs an e-mail worker with room, a mail
// is written already leased to it, its content is kept in the worker's memory, and the insert's
// `RETURNING pg_notify(<the worker's channel>, <the mail's id>)` tells the worker at commit that
// it exists. The worker sends it at once: no claim statement, no claim's row version, and its
// body never read back from the database. Otherwise it is written unclaimed, for a poll.
import { createHandoff, type Handoff } from '../../kit/handoff.ts'
import type { Mail } from './service.ts'

export type BornMail = Mail & { id: string }

/** How a mail written now is born: leased to this process's worker. */
export interface MailBirth {
  /** The worker's own NOTIFY channel. */
  channel: string
  /** The lease (and `attempts = 1`, as a claim would set). */
  until: Date
  /** Keeps the mails' content in the worker until their commit is announced (or given up on). */
  hold(mails: BornMail[]): void
}

export type MailHandoff = Handoff<MailBirth>

/** One per process (its deps), shared by the code that writes mails and the worker. */
export const createMailHandoff = (): MailHandoff => createHandoff<MailBirth>()
