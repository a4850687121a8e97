// A worker's born mails (handoff.ts): held from their statement to their commit's announcement
// on the worker's own channel, then sent with no claim; their sent marks go in batches.
import { randomBytes } from 'node:crypto'
import type { Deps } from '../../deps.ts'
import { listenForBirths } from '../../kit/handoff.ts'
import { EMAIL_LEASE_MS, recordFailedSend } from './attempts.ts'
import type { BornMail, MailBirth } from './handoff.ts'
import { emailRepo as repo } from './repo.ts'
import type { MailTransport } from './transport.ts'

/** Born mails being sent at once, at most: beyond, mails are written unclaimed. */
const MAX_SENDING = 500
/**
 * Born mails' contents (a few kB each) waiting for their commit to be announced, at most. A
 * statement that rolled back, a mail its dedupe key refused or its condition left out (the
 * access mail of a buyer who already had an account) announces nothing: its content is
 * dropped after HOLD_MS. A commit announced later still is sent by a poll once its lease runs
 * out; a commit takes milliseconds.
 */
const MAX_HELD = 1_000
const HOLD_MS = 5_000
/** Born mails sent are marked in one statement per this much time (not one each). */
const SENT_FLUSH_MS = 100
/** The longest one send may take: the transport's time-outs (connect, greeting, socket). */
const SEND_MAX_MS = 50_000

/** The born mails of one worker (see the file's head); `keepingUp` is told by its passes. */
export function bornMails(deps: Deps, transport: MailTransport, retryBaseMs: number) {
  const channel = `vitrine_mail_${randomBytes(8).toString('hex')}`
  /** Content of born mails not yet announced, oldest first (a Map keeps insertion order). */
  const held = new Map<string, { mail: BornMail; until: Date; since: number }>()
  const sending = new Set<Promise<void>>()
  let sent: { id: string; at: Date }[] = []
  let flushTimer: NodeJS.Timeout | null = null
  let flushing: Promise<void> = Promise.resolve()
  let keepingUp = true

  const dropStale = () => {
    const oldest = performance.now() - HOLD_MS
    for (const [id, entry] of held) {
      if (entry.since > oldest) break
      held.delete(id)
    }
  }
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
  const take = (id: string) => {
    const entry = held.get(id)
    held.delete(id)
    // Dropped already (announced after HOLD_MS), or a lease too short to send within: the
    // mail waits for its lease to run out and a poll.
    if (!entry || deps.clock.now().getTime() >= entry.until.getTime() - SEND_MAX_MS) return
    send(entry.mail)
  }
  const plan = (now: Date): MailBirth | null => {
    dropStale()
    if (!keepingUp || held.size >= MAX_HELD || sending.size >= MAX_SENDING) return null
    const until = new Date(now.getTime() + EMAIL_LEASE_MS)
    return {
      channel,
      until,
      hold(mails) {
        const since = performance.now()
        for (const mail of mails) held.set(mail.id, { mail, until, since })
      },
    }
  }

  const births = listenForBirths(deps.database, deps.mailHandoff, { channel, take, plan }).catch(
    (error) => {
      deps.log.warn({ err: error }, 'born e-mails unavailable; all are claimed')
      return null
    },
  )

  return {
    keepingUp(value: boolean) {
      keepingUp = value
    },
    /** Takes in what was announced before the call, sends it and marks it. */
    async settle() {
      await (await births)?.sync().catch(() => {}) // lost: births stopped with it
      await Promise.all([...sending])
      await flush()
    },
    /**
     * No births from now on; what was announced by then is sent. A mail whose commit comes
     * later keeps its lease until it runs out, and a poll sends it then.
     */
    async stop() {
      const heard = await births
      heard?.detach()
      await heard?.sync().catch(() => {})
      await heard?.close()
      await Promise.all([...sending])
      await flush()
    },
  }
}
