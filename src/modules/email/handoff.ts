// Mails born claimed (kit/handoff.ts): when this process runs an e-mail worker with room, a mail
// is written already leased to it, and once its transaction has committed the writing code
// hands its content to the worker (kit/after-commit.ts). The worker sends it at once: no claim
// statement, no claim's row version, and its body never read back from the database.
// Otherwise it is written unclaimed, for a poll.
import { createHandoff, type Handoff } from '../../kit/handoff.ts'
import type { Mail } from './service.ts'

export type BornMail = Mail & { id: string }

/** How a mail written now is born: leased to this process's worker. */
export interface MailBirth {
  /** The lease (and `attempts = 1`, as a claim would set). */
  until: Date
  /** Gives the worker the mails written, once their transaction has committed. */
  take(mails: BornMail[]): void
}

export type MailHandoff = Handoff<MailBirth>

/** One per process (its deps), shared by the code that writes mails and the worker. */
export const createMailHandoff = (): MailHandoff => createHandoff<MailBirth>()
