// Sends the mail outbox: claimed under a lease (a crashed worker's mail comes back when the
// lease expires), retried with exponential backoff, given up after MAX_ATTEMPTS. Mails written
// by this process while the worker keeps up are born claimed (handoff.ts): sent as their commit
// is announced, with no claim.

import { randomBytes } from 'node:crypto'
import type { Selectable } from 'kysely'
import type { Deps } from '../../deps.ts'
import type { DB } from '../../kit/db-schema.ts'
import { listenForBirths } from '../../kit/handoff.ts'
import { claimDueRows, startPoller } from '../../kit/jobs.ts'
import type { WorkerFactory } from '../../workers.ts'
import type { BornMail, MailBirth } from './handoff.ts'
import { emailRepo as repo } from './repo.ts'
import { createMailTransport, type MailTransport } from './transport.ts'

export const MAX_ATTEMPTS = 8
// Each pass costs a fixed ~0.1 s beside its mails (measured over SMTP: 20 mails a pass gave
// ~175 mails/s, 100 gave ~650), and a launch queues three mails per sale: big passes.
const BATCH = 100
// The lease outlives the slowest pass, or another worker would send its mails again: each of
// the pool's connections carries BATCH / SMTP_CONNECTIONS = 5 mails in a row, each bounded by
// the transport's time-outs (connect 10 s + greeting 10 s + socket 30 s). The price: mail a
// crashed worker had claimed waits up to 10 minutes.
export const EMAIL_LEASE_MS = 10 * 60_000
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

export function emailRetryDelayMs(attempt: number, baseMs: number): number {
  return Math.min(baseMs * 2 ** (attempt - 1), 3_600_000)
}

export const startEmailWorker: WorkerFactory = (deps) => {
  const transport = createMailTransport(deps.config)
  const retryBaseMs = deps.config.emailRetryBaseMs
  const born = bornMails(deps, transport, retryBaseMs)
  const poller = startPoller({
    name: 'email.send',
    intervalMs: deps.config.workerPollMs,
    pass: async () => {
      const found = await sendDue(deps, transport, retryBaseMs)
      // A full batch is a backlog: mails written meanwhile wait their turn, unclaimed.
      born.keepingUp(found < BATCH)
      return found
    },
    onError: (error) => deps.log.error({ err: error }, 'e-mail pass failed'),
  })
  return {
    name: poller.name,
    kick: poller.kick,
    /** One pass, resolved once the born mails committed before the call are sent and marked. */
    async runOnce() {
      await born.settle()
      return poller.runOnce()
    },
    async stop() {
      await born.stop()
      await poller.stop()
      transport.close()
    },
  }
}

/**
 * The born mails of one worker: held from their statement to their commit's announcement on
 * the worker's own channel, then sent; their marks go in batches.
 */
function bornMails(deps: Deps, transport: MailTransport, retryBaseMs: number) {
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
        (error) => failed(deps, mail.id, 1, error, retryBaseMs),
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

async function sendDue(deps: Deps, transport: MailTransport, retryBaseMs: number): Promise<number> {
  // Claims and marks commit relaxed (kit/db.ts): a database crash can only send a mail again.
  const mails = await claimDueRows<Selectable<DB['emails']>>(deps.database.relaxed, {
    table: 'emails',
    now: deps.clock.now(),
    limit: BATCH,
    leaseMs: EMAIL_LEASE_MS,
  })
  // Sent mails are marked in one statement at the end of the pass (not one each): a pass ends
  // within the lease (the SMTP time-outs see to it), so this is as safe as marking each at once.
  const sent: { id: string; at: Date }[] = []
  const results = await Promise.allSettled(
    mails.map(async (mail) => {
      try {
        await transport.send({
          id: mail.id,
          to: mail.to_address,
          subject: mail.subject,
          text: mail.text_body,
          html: mail.html_body,
        })
        sent.push({ id: mail.id, at: deps.clock.now() })
      } catch (error) {
        await failed(deps, mail.id, mail.attempts, error, retryBaseMs)
      }
    }),
  )
  if (sent.length) await repo.markSent(deps.database.relaxed, sent)
  const failure = results.find((r) => r.status === 'rejected')
  if (failure) throw failure.reason
  return mails.length
}

/** A send that failed: tried again later with a doubling wait, or given up after MAX_ATTEMPTS. */
async function failed(
  deps: Deps,
  id: string,
  attempts: number,
  error: unknown,
  retryBaseMs: number,
) {
  const message = error instanceof Error ? error.message : String(error)
  const next =
    attempts >= MAX_ATTEMPTS
      ? null
      : new Date(deps.clock.now().getTime() + emailRetryDelayMs(attempts, retryBaseMs))
  deps.log.warn({ emailId: id, attempt: attempts, error: message }, 'e-mail not sent')
  await repo.markRetry(deps.database.relaxed, id, message.slice(0, 1000), next)
}
