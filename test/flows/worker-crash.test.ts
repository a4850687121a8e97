// Webhook workers scale out and survive crashes. On PostgreSQL the workers are real processes
// (`ROLE=worker`), killed with SIGKILL in the middle of a burst and replaced. On PGlite one
// process owns the database: the workers are services sharing it in this process, and the crash
// is a worker that leased a batch and never came back — the same lease expiry brings it back.
import { randomBytes } from 'node:crypto'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { withTx } from '../../src/kit/db.ts'
import { webhooksRepo } from '../../src/modules/webhooks/repo.ts'
import { emitEvent } from '../../src/modules/webhooks/service.ts'
import { type Creator, signupCreator } from '../setup/actors.ts'
import { type Answer, startReceiver } from '../setup/receiver.ts'
import { engine, eventually, startTestService, type TestService } from '../setup/service.ts'
import { startWorkerProcess, type WorkerProcess } from '../setup/worker-process.ts'

const APP_SECRET = randomBytes(32).toString('hex')
/** Leases last the time-out plus 5 s: a short time-out keeps the crash test short. */
const WORKER_ENV = { WEBHOOK_TIMEOUT_MS: '2s', WEBHOOK_RETRY_BASE_MS: '50', WORKER_POLL_MS: '20' }

let svc: TestService
let creator: Creator
const processes: WorkerProcess[] = []
const inProcess: TestService[] = []
const receivers: Awaited<ReturnType<typeof startReceiver>>[] = []

beforeAll(async () => {
  // This service only serves the API: the workers under test are started by each test.
  svc = await startTestService({ APP_SECRET, ...WORKER_ENV, ROLE: 'api' })
})
// A fresh account per test, so one test's endpoint never receives the next test's burst.
beforeEach(async () => {
  creator = await signupCreator(svc.api)
})
afterEach(async () => {
  await Promise.all(processes.splice(0).map((w) => w.kill()))
  await Promise.all(inProcess.splice(0).map((w) => w.stop()))
  await Promise.all(receivers.splice(0).map((r) => r.close()))
})
afterAll(() => svc?.stop())

async function subscribedReceiver(answer: () => Answer) {
  const r = await startReceiver(answer)
  receivers.push(r)
  const key = await creator.key(['write:webhooks'])
  const res = await svc.api('POST', '/api/v1/webhooks', {
    key,
    body: { url: r.url, events: ['order.paid'] },
  })
  expect(res.status).toBe(201)
  return { ...r, endpointId: res.body.data.id as string }
}

async function burst(count: number): Promise<string[]> {
  return withTx(svc.deps.db, async (tx) => {
    const ids: string[] = []
    for (let i = 0; i < count; i++) {
      ids.push(
        await emitEvent(tx, svc.deps, {
          accountId: creator.accountId,
          type: 'order.paid',
          data: { order_id: `burst-${i}` },
        }),
      )
    }
    return ids
  })
}

const deliveriesOf = (endpointId: string) =>
  svc.deps.db
    .selectFrom('webhook_deliveries')
    .select(['status', 'attempts'])
    .where('endpoint_id', '=', endpointId)
    .execute()

interface Worker {
  /** Dies at once, without finishing or releasing anything. */
  kill(): Promise<void>
}

/** A service in this process on the test database, whose passes the test can run. */
async function startInProcessWorker(): Promise<TestService> {
  const worker = await startTestService({ APP_SECRET, ...WORKER_ENV }, svc.testDb)
  inProcess.push(worker)
  return worker
}

/** A worker on the test database: a child process on PostgreSQL, a service here on PGlite. */
async function startWorker(): Promise<Worker> {
  if (engine === 'pglite') {
    await startInProcessWorker()
    return { kill: () => Promise.reject(new Error('an in-process worker cannot be killed')) }
  }
  const worker = await startWorkerProcess({
    ...WORKER_ENV,
    DATABASE_URL: svc.testDb.url!,
    APP_SECRET,
    ALLOW_HTTP_WEBHOOKS: '1',
  })
  processes.push(worker)
  return worker
}

describe(`webhook workers scale out and survive crashes (${engine})`, () => {
  it('two workers share 500 deliveries and never send one twice', {
    timeout: 120_000,
  }, async () => {
    const r = await subscribedReceiver(() => ({ status: 200, delayMs: 5 }))
    await Promise.all([startWorker(), startWorker()])
    const ids = await burst(500)
    // Watched in memory first: polling 500 rows meanwhile would slow the workers (on PGlite
    // they share its one connection) until their leases expire.
    await eventually(async () => r.received.length >= 500, 90_000)
    // A send ends before its delivery is recorded: once every delivery is recorded after one
    // claim each, no send is left in flight and the receiver's log is final.
    const rows = await eventually(async () => {
      const all = await deliveriesOf(r.endpointId)
      return all.every((d) => d.status === 'delivered') ? all : null
    }, 90_000)
    expect(rows.every((d) => d.attempts === 1)).toBe(true)
    expect(r.received.map((x) => x.body.id).sort()).toEqual([...ids].sort())
  })

  it('a worker that dies mid-burst: after its leases expire, all 1,000 events are delivered', {
    timeout: 120_000,
  }, async () => {
    const r = await subscribedReceiver(() => ({ status: 200, delayMs: 10 }))
    const ids = await burst(1000)
    if (engine === 'postgres') {
      const doomed = await startWorker()
      await eventually(async () => r.received.length >= 150, 30_000)
      await doomed.kill()
      expect(r.received.length).toBeLessThan(1000)
    } else {
      // The dead worker: it leased a batch and never answered for it.
      const leased = await webhooksRepo.claimDue(svc.deps.db, {
        now: svc.deps.clock.now(),
        limit: 100,
        perEndpoint: 4,
        leaseMs: 7_000,
      })
      expect(leased).toHaveLength(4)
    }
    if (engine === 'postgres') await startWorker()
    else {
      // Its leases still hold the endpoint's concurrency cap until they expire: a pass sends none.
      const worker = await startInProcessWorker()
      expect(await worker.workers!.runOnce('webhooks.deliver')).toBe(0)
      expect(r.received).toHaveLength(0)
      await svc.api('POST', '/sandbox/clock/advance', { body: { seconds: 8 } })
    }
    await eventually(
      async () => (await deliveriesOf(r.endpointId)).every((d) => d.status === 'delivered'),
      90_000,
    )
    const received = new Set(r.received.map((x) => x.body.id))
    expect(received).toEqual(new Set(ids))
  })
})
