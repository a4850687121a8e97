// No mail is lost in a crash: a worker that dies while its SMTP server has the mail half sent
// leaves the mail leased, and once the lease expires the next worker (in this process, whose
// passes the test runs) sends it, once. On
// PostgreSQL the dying worker is a real process killed with SIGKILL while the server stalls on
// DATA; on PGlite (one process owns the database) it is a claim that is never answered for.
import { randomBytes } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { withTx } from '../../src/kit/db.ts'
import { claimDue } from '../../src/kit/jobs.ts'
import { EMAIL_LEASE_MS } from '../../src/modules/email/attempts.ts'
import { queueEmail } from '../../src/modules/email/service.ts'
import { refundCompletedEmail } from '../../src/modules/email/templates.ts'
import { engine, eventually, startTestService, type TestService } from '../setup/service.ts'
import { startSmtpSink } from '../setup/smtp-sink.ts'
import { startWorkerProcess, type WorkerProcess } from '../setup/worker-process.ts'

const APP_SECRET = randomBytes(32).toString('hex')

let svc: TestService
const cleanups: (() => Promise<unknown>)[] = []
beforeAll(async () => {
  // Only the API here: the workers under test are started by the test.
  svc = await startTestService({ APP_SECRET, ROLE: 'api' })
})
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup()
  await svc?.stop()
})

const mailRow = () => svc.deps.db.selectFrom('emails').selectAll().executeTakeFirstOrThrow()

describe(`mail survives a worker crash (${engine})`, () => {
  it('a worker killed mid-send: after its lease expires the mail is sent once', {
    timeout: 60_000,
  }, async () => {
    await withTx(svc.deps.db, (tx) =>
      queueEmail(tx, svc.deps, {
        to: 'caio@example.com',
        ...refundCompletedEmail({
          buyerName: 'Caio',
          productName: 'Aquarela',
          amountCents: 4990,
          orderId: 'o-crash',
        }),
      }),
    )

    if (engine === 'postgres') {
      const hanging = await startSmtpSink(() => 'stall')
      cleanups.push(hanging.close)
      const doomed: WorkerProcess = await startWorkerProcess({
        DATABASE_URL: svc.testDb.url!,
        APP_SECRET,
        SMTP_URL: hanging.url,
        WORKER_POLL_MS: '20',
      })
      cleanups.push(doomed.kill)
      await eventually(async () => hanging.stalled() === 1)
      await doomed.kill()
    } else {
      const leased = await claimDue(svc.deps.db, {
        table: 'emails',
        now: svc.deps.clock.now(),
        limit: 10,
        leaseMs: EMAIL_LEASE_MS,
      })
      expect(leased).toHaveLength(1)
    }
    expect((await mailRow()).status).toBe('pending')

    const sink = await startSmtpSink()
    cleanups.push(sink.close)
    // The next worker runs in this process (on either engine), so the test can run its passes.
    const worker = await startTestService({ APP_SECRET, SMTP_URL: sink.url }, svc.testDb)
    cleanups.push(worker.stop)
    // The dead worker's lease still holds the mail: a pass claims nothing…
    expect(await worker.workers!.runOnce('email.send')).toBe(0)
    expect(sink.received).toHaveLength(0)
    // …until it expires.
    await svc.api('POST', '/sandbox/clock/advance', {
      body: { seconds: EMAIL_LEASE_MS / 1000 + 1 },
    })
    await eventually(async () => (await mailRow()).status === 'sent', 20_000)
    expect(sink.received).toHaveLength(1)
    expect(sink.received[0]).toMatch(/^To: caio@example\.com/m)
    expect((await mailRow()).attempts).toBe(2)
  })
})
