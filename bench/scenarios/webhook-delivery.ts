// Scenario: webhook delivery on PostgreSQL, by worker processes (ROLE=worker) apart from the
// API, to a local receiver that answers 200 at once.
// - Throughput: N events for 50 endpoints of 50 accounts are committed in one transaction while
//   k workers wait; deliveries/s = N / (last receipt − commit).
// - Latency: `order.paid` events committed one per transaction at a steady rate (the event's own
//   commit, not a whole payment), one worker; latency = receipt − commit, same process clock.
import { randomBytes } from 'node:crypto'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { withTx } from '../../src/kit/db.ts'
import { emitEvent } from '../../src/modules/webhooks/service.ts'
import { startWorkerProcess, type WorkerProcess } from '../../test/setup/worker-process.ts'
import { request } from '../lib/http.ts'
import { Latency } from '../lib/latency.ts'
import { benchCreator, startBenchService } from '../lib/service.ts'

const ENDPOINTS = 50

export interface WebhookThroughput {
  workers: number
  endpoints: number
  deliveries: number
  seconds: number
  perSecond: number
}

export interface WebhookLatency {
  ratePerSecond: number
  events: number
  latency: Latency
}

/** Counts receipts per event id and notes when each first arrived. */
async function startCountingReceiver() {
  const arrivals = new Map<string, number>()
  let waiter: { count: number; resolve: () => void } | null = null
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c) => chunks.push(c))
    req.on('end', () => {
      const id = JSON.parse(Buffer.concat(chunks).toString('utf8')).id as string
      if (!arrivals.has(id)) arrivals.set(id, performance.now())
      res.end('ok')
      if (waiter && arrivals.size >= waiter.count) waiter.resolve()
    })
  })
  server.keepAliveTimeout = 30_000
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: (path: string) => `http://127.0.0.1:${port}/${path}`,
    arrivals,
    waitFor: (count: number) =>
      new Promise<void>((resolve) => {
        if (arrivals.size >= count) return resolve()
        waiter = { count, resolve }
      }),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

async function setup(endpoints = ENDPOINTS) {
  const appSecret = randomBytes(32).toString('hex')
  const env = { APP_SECRET: appSecret, ALLOW_HTTP_WEBHOOKS: '1', ROLE: 'api' }
  const bench = await startBenchService('postgres', env)
  const receiver = await startCountingReceiver()
  const url = bench.service.url
  const accounts: string[] = []
  try {
    for (let i = 0; i < endpoints; i++) {
      const creator = await benchCreator(url, ['write:webhooks', 'write:products'], 1000)
      await request(url, 'POST', '/api/v1/webhooks', {
        headers: { authorization: `Bearer ${creator.key}` },
        body: { url: receiver.url(`hooks/${i}`), events: ['order.paid'] },
      })
      accounts.push(creator.accountId)
    }
  } catch (error) {
    // A failed set-up leaves no database behind.
    await receiver.close()
    await bench.stop()
    throw error
  }
  const workers: WorkerProcess[] = []
  const startWorkers = async (count: number) => {
    for (let i = 0; i < count; i++) {
      workers.push(
        await startWorkerProcess({
          ...env,
          DATABASE_URL: bench.databaseUrl!,
          WORKER_POLL_MS: '250ms',
        }),
      )
    }
  }
  const emit = (tx: Parameters<Parameters<typeof withTx>[1]>[0], n: number) =>
    emitEvent(tx, bench.service.deps, {
      accountId: accounts[n % accounts.length]!,
      type: 'order.paid',
      data: { order_id: `bench-${n}`, amount: 97.9 },
    })
  return {
    db: bench.service.deps.db,
    receiver,
    startWorkers,
    emit,
    async stop() {
      await Promise.all(workers.map((w) => w.kill()))
      await receiver.close()
      await bench.stop()
    },
  }
}

export async function webhookThroughput(opts: {
  workers: number
  deliveries: number
  /** Endpoints (one per account) the deliveries are spread over; 50 unless told. */
  endpoints?: number
}): Promise<WebhookThroughput> {
  const run = await setup(opts.endpoints)
  try {
    await run.startWorkers(opts.workers)
    await withTx(run.db, async (tx) => {
      for (let n = 0; n < opts.deliveries; n++) await run.emit(tx, n)
    })
    const committed = performance.now()
    await run.receiver.waitFor(opts.deliveries)
    const seconds = (Math.max(...run.receiver.arrivals.values()) - committed) / 1000
    return {
      workers: opts.workers,
      endpoints: opts.endpoints ?? ENDPOINTS,
      deliveries: opts.deliveries,
      seconds,
      perSecond: opts.deliveries / seconds,
    }
  } finally {
    await run.stop()
  }
}

export async function webhookLatency(opts: {
  ratePerSecond: number
  seconds: number
}): Promise<WebhookLatency> {
  const run = await setup()
  try {
    await run.startWorkers(1)
    const committedAt = new Map<string, number>()
    const total = opts.ratePerSecond * opts.seconds
    const started = performance.now()
    const inFlight: Promise<void>[] = []
    for (let n = 0; n < total; n++) {
      const due = started + (n * 1000) / opts.ratePerSecond
      const wait = due - performance.now()
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait))
      inFlight.push(
        withTx(run.db, (tx) => run.emit(tx, n)).then((id) => {
          committedAt.set(id, performance.now())
        }),
      )
    }
    await Promise.all(inFlight)
    await run.receiver.waitFor(total)
    const latency = new Latency()
    for (const [id, at] of committedAt) latency.add(run.receiver.arrivals.get(id)! - at)
    return { ratePerSecond: opts.ratePerSecond, events: total, latency }
  } finally {
    await run.stop()
  }
}
