// Sends the mail outbox: passes claim due mails under a lease (attempts.ts); mails written by
// this process while the worker keeps up are born claimed (born-mails.ts): handed over and sent
// once their transaction has committed, with no claim.
import type { Selectable } from 'kysely'
import type { Deps } from '../../deps.ts'
import type { DB } from '../../kit/db-schema.ts'
import { claimDueRows, startPoller } from '../../kit/jobs.ts'
import type { WorkerFactory } from '../../workers.ts'
import { EMAIL_LEASE_MS, recordFailedSend } from './attempts.ts'
import { bornMails } from './born-mails.ts'
import { emailRepo as repo } from './repo.ts'
import { createMailTransport, type MailTransport } from './transport.ts'

// Each pass costs a fixed ~0.1 s beside its mails (measured over SMTP: 20 mails a pass gave
// ~175 mails/s, 100 gave ~650), and a launch queues two mails per sale: big passes.
const BATCH = 100

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
        await recordFailedSend(deps, mail.id, mail.attempts, error, retryBaseMs)
      }
    }),
  )
  if (sent.length) await repo.markSent(deps.database.relaxed, sent)
  const failure = results.find((r) => r.status === 'rejected')
  if (failure) throw failure.reason
  return mails.length
}
