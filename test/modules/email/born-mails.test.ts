// Mails born claimed (email/handoff.ts): written already leased to the e-mail worker of the
// process that wrote them, and handed to it with their content once their transaction has
// committed — sent with no claim. Polls are a minute apart here, so within a test only that
// hand-off (or a requested pass) brings a mail to the worker. Whether a claim touched a row is
// read off its xmin: a claim is an UPDATE.
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { withTx } from '../../../src/kit/db.ts'
import { EMAIL_LEASE_MS } from '../../../src/modules/email/attempts.ts'
import { createMailHandoff } from '../../../src/modules/email/handoff.ts'
import { type QueuedMail, queueEmails } from '../../../src/modules/email/service.ts'
import { engine, eventually, startTestService, type TestService } from '../../setup/service.ts'
import { type SinkAnswer, startSmtpSink } from '../../setup/smtp-sink.ts'

let svc: TestService
let sink: Awaited<ReturnType<typeof startSmtpSink>>
/** Subjects whose SMTP answer waits for `release`. */
const holds = new Map<string, Promise<SinkAnswer>>()
beforeAll(async () => {
  sink = await startSmtpSink((raw) => {
    for (const [subject, hold] of holds) if (raw.includes(`Subject: ${subject}`)) return hold
    return 'accept'
  })
  svc = await startTestService({ WORKER_POLL_MS: '1m', SMTP_URL: sink.url })
})
afterAll(async () => {
  await svc?.stop()
  await sink?.close()
})

const mail = (subject: string, dedupeKey = subject): QueuedMail => ({
  to: 'compradora@example.com',
  subject,
  text: 'corpo',
  html: '<p>corpo</p>',
  dedupeKey,
})
const receivedSubjects = () =>
  sink.received.map((raw) => /^Subject: (.*)$/m.exec(raw)?.[1]).filter(Boolean)

/** Queues mails in a transaction of their own; the transaction's id (as its rows' xmin). */
const queue = (mails: QueuedMail[], ctx: Parameters<typeof queueEmails>[1] = svc.deps) =>
  withTx(svc.deps.db, async (tx) => {
    await queueEmails(tx, ctx, mails)
    const { rows } = await sql<{
      xid: string
    }>`SELECT (txid_current() % 4294967296)::text AS xid`.execute(tx)
    return rows[0]!.xid
  })

async function rowOf(dedupeKey: string) {
  const { rows } = await sql<{
    status: string
    attempts: number
    leased: boolean
    xmin: string
    sent: boolean
  }>`SELECT status, attempts, locked_until IS NOT NULL AS leased, xmin::text AS xmin,
      sent_at IS NOT NULL AS sent
    FROM emails WHERE dedupe_key = ${dedupeKey}`.execute(svc.deps.db)
  expect(rows).toHaveLength(1)
  return rows[0]!
}

describe(`mails born claimed (${engine})`, () => {
  it('is written leased and sent once its commit is done, never claimed', async () => {
    let release!: (answer: SinkAnswer) => void
    holds.set('Nascido', new Promise((resolve) => (release = resolve)))
    try {
      const xid = await withTx(svc.deps.db, async (tx) => {
        await queueEmails(tx, svc.deps, [mail('Nascido')])
        // Written, not yet committed: nothing is handed over, so nothing goes out.
        await new Promise((resolve) => setTimeout(resolve, 200))
        expect(sink.connections()).toBe(0)
        const { rows } = await sql<{
          xid: string
        }>`SELECT (txid_current() % 4294967296)::text AS xid`.execute(tx)
        return rows[0]!.xid
      })
      // On its way to SMTP with no pass run: only the hand-off could have brought it.
      await eventually(async () => sink.connections() > 0, 5_000)
      await new Promise((resolve) => setTimeout(resolve, 100))
      expect(await rowOf('Nascido')).toEqual({
        status: 'pending',
        attempts: 1,
        leased: true,
        xmin: xid,
        sent: false,
      })
    } finally {
      release('accept')
    }
    await eventually(async () => (await rowOf('Nascido')).sent, 5_000)
    expect(await rowOf('Nascido')).toMatchObject({ status: 'sent', attempts: 1, leased: false })
    expect(receivedSubjects()).toContain('Nascido')
  })

  it('a mail rolled back, or refused by its dedupe key, is never sent', async () => {
    await expect(
      withTx(svc.deps.db, async (tx) => {
        await queueEmails(tx, svc.deps, [mail('Desfeito')])
        throw new Error('rollback')
      }),
    ).rejects.toThrow('rollback')
    await queue([mail('Uma vez', 'dedupe-born')])
    await queue([mail('Duas vezes', 'dedupe-born')])
    await svc.workers!.runOnce('email.send')
    expect(receivedSubjects()).toContain('Uma vez')
    expect(receivedSubjects()).not.toContain('Desfeito')
    expect(receivedSubjects()).not.toContain('Duas vezes')
    expect(await rowOf('dedupe-born')).toMatchObject({ status: 'sent', attempts: 1 })
  })

  it('without a worker to hand it to, a mail is written unclaimed and a pass sends it', async () => {
    // A hand-off no worker took: as in a process that runs none (`start:api`).
    await queue([mail('Sem dono')], { clock: svc.deps.clock, mailHandoff: createMailHandoff() })
    expect(await rowOf('Sem dono')).toMatchObject({ status: 'pending', attempts: 0, leased: false })
    await svc.workers!.runOnce('email.send')
    expect(await rowOf('Sem dono')).toMatchObject({ status: 'sent', attempts: 1, sent: true })
  })

  it('a mail born to a process that died is sent by a pass once its lease runs out', async () => {
    // Written as a process would whose worker died right after the commit: the hand-off
    // reaches no one.
    const dead = createMailHandoff()
    dead.attach((now) => ({ until: new Date(now.getTime() + EMAIL_LEASE_MS), take: () => {} }))
    const xid = await queue([mail('Orfao')], { clock: svc.deps.clock, mailHandoff: dead })
    expect(await rowOf('Orfao')).toMatchObject({ attempts: 1, leased: true, xmin: xid })
    await svc.workers!.runOnce('email.send')
    expect(receivedSubjects()).not.toContain('Orfao')
    await svc.deps.clock.advance(EMAIL_LEASE_MS + 1_000)
    await svc.workers!.runOnce('email.send')
    expect(receivedSubjects()).toContain('Orfao')
    expect(await rowOf('Orfao')).toMatchObject({ status: 'sent', attempts: 2 })
  })
})
