// A worker's born mails (handoff.ts): handed over by the code that wrote them once their
// transaction has committed, then sent with no claim; their sent marks go in batches.
import type { Deps } from '../../deps.ts'
import { EMAIL_LEASE_MS, recordFailedSend } from './attempts.ts'
import type { BornMail, MailBirth } from './handoff.ts'
import { emailRepo as repo } from './repo.ts'
import type { MailTransport } from './transport.ts'

/** Born mails being sent at once, at most: beyond, mails are written unclaimed. */
const MAX_SENDING = 500
/** Born mails sent are marked in one statement per this much time (not one each). */
const SENT_FLUSH_MS = 100
/** The longest one send may take: the transport's time-outs (connect, greeting, socket). */
const SEND_MAX_MS = 50_000

/** The born mails of one worker (see the file's head); `keepingUp` is told by its passes. */
export function bornMails(deps: Deps, transport: MailTransport, retryBaseMs: number) {
  const sending = new Set<Promise<void>>()
  let sent: { id: string; at: Date }[] = []
  let flushTimer: NodeJS.Timeout | null = null
  let flushing: Promise<void> = Promise.resolve()
  let keepingUp = true
  let stopped = false

  const flush = () => {
    if (flushTimer) clearTimeout(flushTimer)
    flushTimer = null
    const batch = sent
    sent = []
    if (!batch.length) return flushing
    // Relaxed (kit/db.ts): a database crash can only send a mail again.
    flushing = flushing
      .then(() => repo.markSent(deps.database.relaxed, batch))
      .then(
        () => {},
        (error) => deps.log.error({ err: error }, 'born e-mails not marked sent'),
      )
    return flushing
  }
  /** A born mail is on its first attempt (a claim would have made it the same). */
  const send = (mail: BornMail) => {
    const one: Promise<void> = transport
      .send(mail)
      .then(
        () => {
          sent.push({ id: mail.id, at: deps.clock.now() })
          flushTimer ??= setTimeout(flush, SENT_FLUSH_MS)
        },
        (error) => recordFailedSend(deps, mail.id, 1, error, retryBaseMs),
      )
      .catch((error) => deps.log.error({ err: error }, 'born e-mail not recorded'))
      .finally(() => sending.delete(one))
    sending.add(one)
  }
  const take = (mails: BornMail[], until: Date) => {
    // A worker stopped meanwhile, or a lease too short to send within (a commit that took
    // most of it): the mail waits for its lease to run out and a poll.
    if (stopped || deps.clock.now().getTime() >= until.getTime() - SEND_MAX_MS) return
    for (const mail of mails) send(mail)
  }
  const plan = (now: Date): MailBirth | null => {
    if (!keepingUp || sending.size >= MAX_SENDING) return null
    const until = new Date(now.getTime() + EMAIL_LEASE_MS)
    return { until, take: (mails) => take(mails, until) }
  }
  const detach = deps.mailHandoff.attach(plan)

  return {
    keepingUp(value: boolean) {
      keepingUp = value
    },
    /** Sends what was handed over before the call, and marks it. */
    async settle() {
      await Promise.all([...sending])
      await flush()
    },
    /**
     * No births from now on; what was handed over by then is sent. A mail whose commit comes
     * later keeps its lease until it runs out, and a poll sends it then.
     */
    async stop() {
      detach()
      stopped = true
      await Promise.all([...sending])
      await flush()
    },
  }
}
