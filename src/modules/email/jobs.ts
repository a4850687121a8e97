// Sends the mail outbox: claimed under a lease (a crashed worker's mail comes back when the
// lease expires), retried with exponential backoff, given up after MAX_ATTEMPTS.

import type { Selectable } from 'kysely'
import type { Deps } from '../../deps.ts'
import type { DB } from '../../kit/db-schema.ts'
import { claimDueRows, startPoller } from '../../kit/jobs.ts'
import type { WorkerFactory } from '../../workers.ts'
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

export function emailRetryDelayMs(attempt: number, baseMs: number): number {
  return Math.min(baseMs * 2 ** (attempt - 1), 3_600_000)
}

export const startEmailWorker: WorkerFactory = (deps) => {
  const transport = createMailTransport(deps.config)
  const poller = startPoller({
    name: 'email.send',
    intervalMs: deps.config.workerPollMs,
    pass: () => sendDue(deps, transport, deps.config.emailRetryBaseMs),
    onError: (error) => deps.log.error({ err: error }, 'e-mail pass failed'),
  })
  return {
    name: poller.name,
    kick: poller.kick,
    runOnce: poller.runOnce,
    async stop() {
      await poller.stop()
      transport.close()
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
  const sent: string[] = []
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
        sent.push(mail.id)
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error)
        const next =
          mail.attempts >= MAX_ATTEMPTS
            ? null
            : new Date(deps.clock.now().getTime() + emailRetryDelayMs(mail.attempts, retryBaseMs))
        deps.log.warn(
          { emailId: mail.id, attempt: mail.attempts, error: message },
          'e-mail not sent',
        )
        await repo.markRetry(deps.database.relaxed, mail.id, message.slice(0, 1000), next)
      }
    }),
  )
  if (sent.length) await repo.markSent(deps.database.relaxed, sent, deps.clock.now())
  const failed = results.find((r) => r.status === 'rejected')
  if (failed) throw failed.reason
  return mails.length
}
