// Launch day (issue 13): one creator's product bought by 16 concurrent buyers (create + sandbox
// pay) against the service as `npm start` runs it — its own process, workers included (or, with
// `split`, as `start:api` + `start:worker` run it) — on a fresh PostgreSQL database, with one
// webhook endpoint subscribed to `order.paid`. Measured:
// - purchases/s (closed loop) and, over that window, SQL statements the service sent, rows
//   and commits PostgreSQL counted, PostgreSQL CPU (the database's backends) and service CPU
//   per purchase, and the service's peak RSS;
// - at a steady offered rate (100 purchases/s), the webhook delay: event created (inside the
//   paying transaction, so an upper bound of commit) → the receiver;
// - the orders list at a seeded depth, one client (a process of its own: timed-client.mjs):
//   page 1, the deepest page it answers at limit 50 and at the largest limit (100), a page
//   beyond any cap, one buyer's few orders (`buyer_email`), the deepest page with a filter,
//   and a `starting_after` cursor halfway down; beside them, the same client against a bare
//   Fastify route sending page 1's body (bare-page-server.mjs): the machine's own floor for one
//   client's p99;
// - last, with `overload`, twice the closed loop's rate offered to it (each buyer on a
//   connection of its own): what load shedding turned away, what was paid and how fast.
import { execFile, spawn } from 'node:child_process'
import { randomBytes, randomInt, randomUUID } from 'node:crypto'
import { Agent, createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import pg from 'pg'
import { MAX_PAGE_LIMIT } from '../../src/kit/http/pagination.ts'
import { SERVER_URL } from '../lib/databases.ts'
import { request } from '../lib/http.ts'
import { Latency } from '../lib/latency.ts'
import { machineCpu, machineDelta } from '../lib/machine-cpu.ts'
import {
  backendCpu,
  databaseCounters,
  tableCounters,
  tableDelta,
  unusedIndexes,
  walCounters,
} from '../lib/pg-cpu.ts'
import { benchCreator, pixBuyer } from '../lib/service.ts'
import { loopBusy, startServiceProcess } from '../lib/service-process.ts'
import { startBenchSmtpSink } from '../lib/smtp-sink.ts'

const PRICE_CENTS = 9790
const TIMED_CLIENT = fileURLToPath(new URL('../lib/timed-client.mjs', import.meta.url))
const BARE_PAGE_SERVER = fileURLToPath(new URL('../lib/bare-page-server.mjs', import.meta.url))
/**
 * Requests each timed client makes before it times any: its own start, and a route's first
 * answers in the server (its code compiled on first use), are no client's steady p99.
 */
const TIMED_WARM_UP = 20
const run = promisify(execFile)
/**
 * A launch's buyers are thousands of people, each at an address of their own (through the
 * reverse proxy's X-Forwarded-For). From one address, the checkout's per-IP rate-limit row
 * would be one hot row holding a minute of hits (thousands at 100/s), rewritten on every
 * purchase: a cost a launch does not have (until 2026-11-26 the bench had exactly that).
 */
const buyerAddress = () => `10.${randomInt(256)}.${randomInt(256)}.${1 + randomInt(254)}`

export const PAGE_LIMIT = 50
const RARE_BUYER = 'compradora-rara@example.com'
export const RARE_BUYER_ORDERS = 60

export interface LaunchDayResult {
  compiled: boolean
  /** `start:api` + `start:worker` (two processes) instead of `npm start`. */
  split: boolean
  /** Every buyer through one affiliate's link. */
  affiliate: boolean
  /** Every checkout with an Idempotency-Key, as the hosted page sends. */
  idempotencyKeys: boolean
  /** Mail went out over SMTP (false: kept in the dev mailbox, a diagnosis of mail's share). */
  smtp: boolean
  buyers: number
  seconds: number
  purchases: number
  perSecond: number
  errors: number
  purchase: Latency
  create: Latency
  pay: Latency
  statementsPerPurchase: number
  commitsPerPurchase: number
  rowsInsertedPerPurchase: number
  rowsUpdatedPerPurchase: number
  /** Rows per purchase by table (pg_stat_user_tables), most first. */
  tables: ReturnType<typeof tableDelta>
  /** Indexes of the written tables that no query used in the run. */
  unusedIndexes: string[]
  /** Statements per purchase by text, most first (BENCH_STATEMENT_TEXTS=1 only). */
  statementTexts: { text: string; perPurchase: number }[]
  pgCpuPerPurchaseMs: number
  pgSystemCpuPerPurchaseMs: number
  /** Cluster-wide WAL written and synced over the closed loop (pg_stat_wal), per purchase. */
  walBytesPerPurchase: number
  walSyncsPerPurchase: number
  serviceCpuPerPurchaseMs: number
  /**
   * The whole machine's CPU per purchase over the window (/proc/stat: the service, PostgreSQL,
   * the bench's own buyers, receiver and mail sink, the kernel), the bench process's share, and
   * how much of the window the cores sat idle.
   */
  machineCpuPerPurchaseMs: number
  benchCpuPerPurchaseMs: number
  machineIdleShare: number
  machineStolenShare: number
  /** Of it, system time (the kernel's: socket writes and reads). */
  serviceSystemCpuPerPurchaseMs: number
  /** The share of the window the (API) process's event loop was busy (not waiting for I/O). */
  serviceLoopBusy: number
  /** The service's context switches per purchase, and of them preemptions. */
  serviceSwitchesPerPurchase: number
  servicePreemptionsPerPurchase: number
  /** The warm-up's own service CPU per purchase (V8 still compiling the hot code). */
  warmUpCpuPerPurchaseMs: number
  warmUpSeconds: number
  rssPeakMiB: number
  /** The worker process's, when split. */
  workerRssPeakMiB: number | null
  webhooks: {
    offeredPerSecond: number
    achievedPerSecond: number
    purchases: number
    errors: number
    delay: Latency
    /** Mails queued during the open loop: queued → handed to the mailer (sent_at). */
    mailDelay: Latency
    /** Of those, how many were still unsent a minute after the loop. */
    mailsUnsent: number
  }
  /** Twice the closed loop's rate offered to `npm start`; null when not asked for. */
  overload: Overload | null
  /**
   * Of the paid orders, the share whose gateway check is still open after the run: each a look
   * the reconciliation makes later (minutes after the sale), outside the measured window.
   */
  openChecksPerPaidOrder: number
  /** Null when no orders were asked for (`orders: 0`). */
  orders: {
    count: number
    seedSeconds: number
    first: Latency
    deepestPage: number
    deepest: Latency
    /** The deepest page answered at MAX_PAGE_LIMIT: as deep, twice the rows. */
    deepestAtMaxPage: number
    deepestAtMax: Latency
    /** Page 1 of one buyer's orders (`buyer_email`): RARE_BUYER_ORDERS among them all. */
    rareBuyer: Latency
    /**
     * Page 1 of two filters each answered by an index, one keeping most (`status=paid`), one few
     * (`payment_method=card`, the rare buyer's): the rarer one's index must be walked.
     */
    paidByCard: Latency
    /** The deepest page (limit 50) with a filter (`status=paid`, which keeps 96 %). */
    filteredDeepest: Latency
    lastPage: number
    lastPageStatus: number
    lastPageError: string | null
    cursor: Latency
    /** A bare Fastify route sending page 1's body, timed the same way: the machine's floor. */
    bare: Latency
  } | null
}

/** Receives webhooks; notes each `order.paid` delay (now − event created_at) while recording. */
async function startReceiver() {
  let received = 0
  let recording = false
  const delay = new Latency()
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c) => chunks.push(c))
    req.on('end', () => {
      const at = Date.now()
      const event = JSON.parse(Buffer.concat(chunks).toString('utf8'))
      if (event.event === 'order.paid') {
        received++
        if (recording) delay.add(at - Date.parse(event.created_at))
      }
      res.end('ok')
    })
  })
  server.keepAliveTimeout = 30_000
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}/hook`,
    delay,
    received: () => received,
    record: () => {
      recording = true
    },
    stopRecording: () => {
      recording = false
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

/**
 * An open loop offered more than the service carries (load shedding, kit/http/load-shedding.ts):
 * what it turned away, what completed and how fast, and its memory meanwhile.
 */
export interface Overload {
  offeredPerSecond: number
  seconds: number
  /** Paid purchases a second, over the offered window and its drain. */
  completedPerSecond: number
  /** Checkouts answered 503 (shed), of those offered. */
  shed: number
  offered: number
  /** Failures other than a shed checkout. */
  errors: number
  /** How long a shed checkout took to be answered. */
  shedAnswer: Latency
  /** Create + pay of the purchases that completed. */
  completed: Latency
  rssPeakMiB: number
}

interface Buyer {
  agent?: Agent
  onShed?: (ms: number) => void
}

/**
 * `perSecond` purchases offered for `seconds`, open loop, by buyers each on a connection of
 * their own: a launch's buyers are thousands of clients, not one client's 64 sockets (which
 * would hold the queue in the bench instead of the service).
 */
async function offerOverload(
  buyOnce: (buyer: Buyer) => Promise<{ purchase: number } | null>,
  perSecond: number,
  seconds: number,
): Promise<Omit<Overload, 'rssPeakMiB'>> {
  const agent = new Agent({ keepAlive: true, maxSockets: Number.POSITIVE_INFINITY })
  const completed = new Latency()
  const shedAnswer = new Latency()
  const offered = perSecond * seconds
  const inFlight = new Set<Promise<void>>()
  const start = performance.now()
  for (let i = 0; i < offered; i++) {
    const wait = start + (i * 1000) / perSecond - performance.now()
    if (wait > 0) await new Promise((r) => setTimeout(r, wait))
    const one: Promise<void> = buyOnce({ agent, onShed: (ms) => shedAnswer.add(ms) })
      .then((t) => {
        if (t) completed.add(t.purchase)
      })
      .catch(() => {})
      .finally(() => inFlight.delete(one))
    inFlight.add(one)
  }
  await Promise.all([...inFlight])
  const elapsed = (performance.now() - start) / 1000
  agent.destroy()
  return {
    offeredPerSecond: perSecond,
    seconds,
    completedPerSecond: completed.count / elapsed,
    shed: shedAnswer.count,
    offered,
    errors: offered - completed.count - shedAnswer.count,
    shedAnswer,
    completed,
  }
}

async function until(done: () => boolean, timeoutMs: number): Promise<boolean> {
  const deadline = performance.now() + timeoutMs
  while (!done()) {
    if (performance.now() > deadline) return false
    await new Promise((r) => setTimeout(r, 50))
  }
  return true
}

export async function launchDay(opts: {
  seconds: number
  buyers: number
  offeredPerSecond: number
  orders: number
  /** Closed-loop purchases before the measured window, so V8 has compiled the hot code. */
  warmUpSeconds: number
  split?: boolean
  /** Every buyer comes through one affiliate's link (a launch with a partner). */
  affiliate?: boolean
  /** Every checkout carries an Idempotency-Key, as the hosted page's do. */
  idempotencyKeys?: boolean
  /**
   * false: no SMTP_URL, mails stay in the dev mailbox (still written and marked sent):
   * a diagnosis of what sending them costs, not a launch as production runs it.
   */
  smtp?: boolean
  /**
   * Runs once the measured window's webhooks and mails are out, before the open loop (the
   * bench's second pgbench baseline, with the service idle again).
   */
  afterWindow?: () => Promise<void>
  /** Ends with twice the closed loop's rate offered for `seconds` (Overload). */
  overload?: boolean
}): Promise<LaunchDayResult> {
  // Mail goes out over real SMTP, as in production (a sink in this process accepts it), so the
  // mailer's CPU counts in the service's and the e-mail delay is queued → accepted by SMTP;
  // with `smtp: false` the sink is started but idle, and the delay is queued → marked sent.
  const smtp = await startBenchSmtpSink()
  const sendsMail = opts.smtp ?? true
  const svc = await startServiceProcess(
    { SMTP_URL: sendsMail ? smtp.url : '' },
    { split: opts.split ?? false },
  )
  const receiver = await startReceiver()
  const url = svc.url
  try {
    const creator = await benchCreator(
      url,
      ['write:products', 'write:webhooks', 'read:orders'],
      PRICE_CENTS,
    )
    const auth = { authorization: `Bearer ${creator.key}` }
    let affiliateCode: string | undefined
    if (opts.affiliate) {
      const enrolled = await request(
        url,
        'POST',
        `/api/v1/products/${creator.productId}/affiliates`,
        {
          headers: auth,
          body: {
            email: `afiliada-${randomBytes(3).toString('hex')}@example.com`,
            commission_percent: 30,
          },
        },
      )
      if (enrolled.status !== 201) throw new Error(`affiliate: ${enrolled.status}`)
      affiliateCode = enrolled.body.data.code as string
    }
    const hook = await request(url, 'POST', '/api/v1/webhooks', {
      headers: auth,
      body: { url: receiver.url, events: ['order.paid'] },
    })
    if (hook.status !== 201) throw new Error(`webhook endpoint: ${hook.status}`)

    let n = 0
    let paid = 0
    /**
     * One purchase; its timings, or null when either call failed. `agent`: another client than
     * the shared one; `onShed`: told how long a checkout answered 503 (shed) took.
     */
    const buyOnce = async ({ agent, onShed }: Buyer = {}) => {
      const started = performance.now()
      const created = await request(url, 'POST', '/api/checkout/create', {
        headers: {
          'x-forwarded-for': buyerAddress(),
          ...(opts.idempotencyKeys ? { 'idempotency-key': randomUUID() } : {}),
        },
        body: {
          ...pixBuyer(creator.productId, n++),
          ...(affiliateCode ? { affiliate_code: affiliateCode } : {}),
        },
        agent,
      })
      const createdAt = performance.now()
      if (created.status === 503) onShed?.(createdAt - started)
      const payment =
        created.status === 201
          ? await request(url, 'POST', `/sandbox/charges/${created.body.charge_id}/pay`, {
              agent,
            })
          : null
      if (created.status !== 201 || payment?.status !== 200) return null
      if (payment.body.callback_status !== 200) return null
      paid++
      const done = performance.now()
      return { create: createdAt - started, pay: done - createdAt, purchase: done - started }
    }

    // Closed loop: warm-up, then the measured window.
    const purchase = new Latency()
    const create = new Latency()
    const pay = new Latency()
    let purchases = 0
    let errors = 0
    const loop = async (end: number, record: boolean) => {
      while (performance.now() < end) {
        const t = await buyOnce()
        if (!t) {
          if (record) errors++
          continue
        }
        if (!record) continue
        purchases++
        purchase.add(t.purchase)
        create.add(t.create)
        pay.add(t.pay)
      }
    }
    // The warm-up's purchases are counted apart: its CPU per purchase includes V8 compiling
    // the hot code (a cost of each process start, not of each purchase).
    const warmUpStats = await svc.stats()
    const warmUpStart = paid
    const warmUpEnd = performance.now() + opts.warmUpSeconds * 1000
    await Promise.all(Array.from({ length: opts.buyers }, () => loop(warmUpEnd, false)))

    svc.resetPeak()
    const cpu = backendCpu(SERVER_URL, svc.databaseName)
    const countersBefore = await databaseCounters(SERVER_URL, svc.databaseName)
    const tablesBefore = await tableCounters(svc.databaseUrl)
    const statsBefore = await svc.stats()
    const walBefore = await walCounters(SERVER_URL)
    const warmUpCpuPerPurchaseMs =
      (statsBefore.cpuMicros - warmUpStats.cpuMicros) / 1000 / Math.max(1, paid - warmUpStart)
    await cpu.start()
    const machineBefore = machineCpu()
    const benchBefore = process.cpuUsage()
    const started = performance.now()
    const end = started + opts.seconds * 1000
    await Promise.all(Array.from({ length: opts.buyers }, () => loop(end, true)))
    const elapsed = (performance.now() - started) / 1000
    const benchCpu = process.cpuUsage(benchBefore)
    const machine = machineDelta(machineBefore, machineCpu())
    const statsAfter = await svc.stats()
    const pgCpuSeconds = await cpu.stop()
    const walAfter = await walCounters(SERVER_URL)
    // pg_stat_database is flushed by the backends about once a second.
    await new Promise((r) => setTimeout(r, 1_200))
    const countersAfter = await databaseCounters(SERVER_URL, svc.databaseName)
    const tables = tableDelta(tablesBefore, await tableCounters(svc.databaseUrl), purchases)
    const unused = await unusedIndexes(
      svc.databaseUrl,
      tables.map((t) => t.table),
    )
    const per = (value: number) => value / purchases
    const statementTexts = Object.entries(statsAfter.texts ?? {})
      .map(([text, count]) => ({
        text: text.replace(/\s+/g, ' ').slice(0, 160),
        perPurchase: (count - (statsBefore.texts?.[text] ?? 0)) / purchases,
      }))
      .filter((t) => t.perPurchase >= (Number(process.env.BENCH_TEXT_MIN) || 0.05))
      .sort((a, b) => b.perPurchase - a.perPurchase)

    // Open loop at the offered rate, once the first window's webhooks are delivered.
    await until(() => receiver.received() >= paid, 120_000)
    if (opts.afterWindow) {
      const client = new pg.Client({ connectionString: svc.databaseUrl })
      await client.connect()
      await untilMailsSent(client, new Date(0)).finally(() => client.end())
      await opts.afterWindow()
    }
    receiver.record()
    const mailsBefore = await latestMail(svc.databaseUrl)
    const webhooks = {
      offeredPerSecond: opts.offeredPerSecond,
      achievedPerSecond: 0,
      purchases: 0,
      errors: 0,
      delay: receiver.delay,
      mailDelay: new Latency(),
      mailsUnsent: 0,
    }
    const offered = opts.offeredPerSecond * opts.seconds
    const inFlight = new Set<Promise<void>>()
    const openStart = performance.now()
    for (let i = 0; i < offered; i++) {
      const wait = openStart + (i * 1000) / opts.offeredPerSecond - performance.now()
      if (wait > 0) await new Promise((r) => setTimeout(r, wait))
      const one: Promise<void> = buyOnce().then((t) => {
        if (t) webhooks.purchases++
        else webhooks.errors++
        inFlight.delete(one)
      })
      inFlight.add(one)
    }
    await Promise.all([...inFlight])
    webhooks.achievedPerSecond = webhooks.purchases / ((performance.now() - openStart) / 1000)
    await until(() => receiver.received() >= paid, 120_000)
    Object.assign(webhooks, await mailDelays(svc.databaseUrl, mailsBefore))
    const statsEnd = await svc.stats()
    const openChecksPerPaidOrder = await openChecksOfPaidOrders(svc.databaseUrl)

    const orders = opts.orders ? await deepPages(url, auth, svc.databaseUrl, creator, opts) : null

    // Last, as it leaves a backlog of webhooks and mails. The open loop's delays are measured
    // (every webhook of it received, above).
    let overload: Overload | null = null
    if (opts.overload) {
      receiver.stopRecording()
      svc.resetPeak()
      const offered = await offerOverload(
        buyOnce,
        Math.round((2 * purchases) / elapsed),
        opts.seconds,
      )
      overload = { ...offered, rssPeakMiB: (await svc.stats()).rssPeak / 1024 / 1024 }
    }
    return {
      compiled: svc.compiled,
      split: svc.split,
      affiliate: Boolean(opts.affiliate),
      idempotencyKeys: Boolean(opts.idempotencyKeys),
      smtp: sendsMail,
      buyers: opts.buyers,
      seconds: opts.seconds,
      purchases,
      perSecond: purchases / elapsed,
      errors,
      purchase,
      create,
      pay,
      statementsPerPurchase: per(statsAfter.statements - statsBefore.statements),
      commitsPerPurchase: per(countersAfter.commits - countersBefore.commits),
      rowsInsertedPerPurchase: per(countersAfter.inserted - countersBefore.inserted),
      rowsUpdatedPerPurchase: per(countersAfter.updated - countersBefore.updated),
      tables,
      unusedIndexes: unused,
      statementTexts,
      pgCpuPerPurchaseMs: per(pgCpuSeconds.total * 1000),
      pgSystemCpuPerPurchaseMs: per(pgCpuSeconds.system * 1000),
      walBytesPerPurchase: per(walAfter.bytes - walBefore.bytes),
      walSyncsPerPurchase: per(walAfter.syncs - walBefore.syncs),
      serviceCpuPerPurchaseMs: per((statsAfter.cpuMicros - statsBefore.cpuMicros) / 1000),
      machineCpuPerPurchaseMs: per(machine.busy * 1000),
      benchCpuPerPurchaseMs: per((benchCpu.user + benchCpu.system) / 1000),
      machineIdleShare: machine.idleShare,
      machineStolenShare: machine.stolenShare,
      serviceSystemCpuPerPurchaseMs: per(
        (statsAfter.systemMicros - statsBefore.systemMicros) / 1000,
      ),
      serviceLoopBusy: loopBusy(statsBefore, statsAfter),
      serviceSwitchesPerPurchase: per(statsAfter.switches - statsBefore.switches),
      servicePreemptionsPerPurchase: per(statsAfter.preemptions - statsBefore.preemptions),
      warmUpCpuPerPurchaseMs,
      warmUpSeconds: opts.warmUpSeconds,
      openChecksPerPaidOrder,
      rssPeakMiB: statsEnd.rssPeak / 1024 / 1024,
      workerRssPeakMiB: statsEnd.worker && statsEnd.worker.rssPeak / 1024 / 1024,
      webhooks,
      orders,
      overload,
    }
  } finally {
    await receiver.close()
    await svc.stop()
    await smtp.close()
  }
}

/** The newest mail's queue time: the open loop's mails are the ones after it. */
async function latestMail(databaseUrl: string): Promise<Date | null> {
  const client = new pg.Client({ connectionString: databaseUrl })
  await client.connect()
  try {
    const { rows } = await client.query('SELECT max(created_at) AS at FROM emails')
    return rows[0].at
  } finally {
    await client.end()
  }
}

/** Open gateway checks ÷ paid orders: the reconciliation's work a sale leaves for later. */
async function openChecksOfPaidOrders(databaseUrl: string): Promise<number> {
  const client = new pg.Client({ connectionString: databaseUrl })
  await client.connect()
  try {
    const { rows } = await client.query(
      `SELECT count(c.id)::float8 / greatest(count(*), 1) AS share FROM orders o
       LEFT JOIN gateway_checks c ON c.id = o.id AND c.status = 'pending'
       WHERE o.status = 'paid'`,
    )
    return rows[0].share
  } finally {
    await client.end()
  }
}

/** Waits (a minute at most) for the mails queued after `since` to be sent; how many were not. */
async function untilMailsSent(client: pg.Client, since: Date): Promise<number> {
  const deadline = performance.now() + 60_000
  let unsent = 0
  do {
    const { rows } = await client.query(
      "SELECT count(*)::int AS n FROM emails WHERE created_at > $1 AND status = 'pending'",
      [since],
    )
    unsent = rows[0].n
    if (unsent) await new Promise((r) => setTimeout(r, 250))
  } while (unsent && performance.now() < deadline)
  return unsent
}

/**
 * How long the mails queued after `after` waited for the e-mail worker (queued → sent), once
 * they are all sent or a minute has passed. Both times are the service's clock.
 */
async function mailDelays(databaseUrl: string, after: Date | null) {
  const client = new pg.Client({ connectionString: databaseUrl })
  await client.connect()
  const since = after ?? new Date(0)
  try {
    const unsent = await untilMailsSent(client, since)
    const { rows } = await client.query(
      `SELECT EXTRACT(EPOCH FROM sent_at - created_at) * 1000 AS ms FROM emails
       WHERE created_at > $1 AND sent_at IS NOT NULL`,
      [since],
    )
    const mailDelay = new Latency()
    for (const row of rows) mailDelay.add(Number(row.ms))
    return { mailDelay, mailsUnsent: unsent }
  } finally {
    await client.end()
  }
}

/** Seeds `count` paid orders for the creator, then times list pages with one client. */
async function deepPages(
  url: string,
  headers: Record<string, string>,
  databaseUrl: string,
  creator: { accountId: string; userId: string; productId: string; planId: string },
  opts: { seconds: number; orders: number },
): Promise<NonNullable<LaunchDayResult['orders']>> {
  const client = new pg.Client({ connectionString: databaseUrl })
  await client.connect()
  const seedStart = performance.now()
  let middleId: string
  try {
    await client.query('BEGIN')
    await client.query('SET LOCAL session_replication_role = replica')
    await client.query(
      `INSERT INTO orders (id, account_id, product_id, plan_id, buyer_id, buyer_email,
        buyer_name, buyer_document, buyer_phone, status, amount_cents, payment_method, paid_at,
        created_at, updated_at)
      SELECT gen_random_uuid(), $1, $2, $3, $4, 'comprador@example.com', 'Comprador',
        '52998224725', '+5511987654321', status, $5, 'pix',
        CASE WHEN status IN ('paid', 'refunded') THEN t END, t, t
      FROM generate_series(1, $6::int) AS g,
        LATERAL (SELECT timestamptz '2026-01-01' + g * interval '1 second' AS t) AS at,
        -- A launch's statuses: most paid, a few PIX left unpaid, cards declined, refunds.
        LATERAL (SELECT CASE g % 100 WHEN 0 THEN 'refunded' WHEN 1 THEN 'failed'
          WHEN 2 THEN 'pending' WHEN 3 THEN 'pending' ELSE 'paid' END::order_status AS status) AS s`,
      [
        creator.accountId,
        creator.productId,
        creator.planId,
        creator.userId,
        PRICE_CENTS,
        opts.orders,
      ],
    )
    // One buyer's few orders among them, spread over the whole list, paid by card: what a filter
    // that keeps few finds (a support look-up, an integration's "what did this buyer buy"), alone
    // or beside one that keeps most.
    await client.query(
      `UPDATE orders SET buyer_email = $2, payment_method = 'card', status = 'paid', paid_at = created_at
       WHERE account_id = $1 AND created_at IN (
         SELECT timestamptz '2026-01-01' + (g * ($3::int / ${RARE_BUYER_ORDERS})) * interval '1 second'
         FROM generate_series(1, ${RARE_BUYER_ORDERS}) AS g)`,
      [creator.accountId, RARE_BUYER, opts.orders],
    )
    await client.query('COMMIT')
    await client.query('VACUUM ANALYZE orders')
    const middle = await client.query<{ id: string }>(
      `SELECT id FROM orders WHERE account_id = $1
       ORDER BY created_at DESC, id DESC OFFSET $2 LIMIT 1`,
      [creator.accountId, Math.floor(opts.orders / 2)],
    )
    middleId = middle.rows[0]!.id
  } finally {
    await client.end()
  }
  const seedSeconds = (performance.now() - seedStart) / 1000
  const count = opts.orders
  const list = (query: string) => request(url, 'GET', `/api/v1/orders?${query}`, { headers })
  /** One client, sequential, in a process of its own: until `seconds` or 500 requests. */
  const timeUrl = async (target: string) => {
    const { stdout } = await run(
      process.execPath,
      [TIMED_CLIENT, target, String(Math.min(opts.seconds, 5)), '500', String(TIMED_WARM_UP)],
      { env: { ...process.env, TIMED_HEADERS: JSON.stringify(headers) } },
    )
    const latency = new Latency()
    for (const ms of JSON.parse(stdout) as number[]) latency.add(ms)
    return latency
  }
  const time = (query: string) => timeUrl(`${url}/api/v1/orders?${query}`)
  const lastPage = Math.ceil(count / PAGE_LIMIT)
  const last = await list(`page=${lastPage}&limit=${PAGE_LIMIT}`)
  /** The deepest page answered at `limit`: the last one, or the last below a cap. */
  const deepestAnswered = async (limit: number) => {
    const answers = async (page: number) =>
      (await list(`page=${page}&limit=${limit}`)).status === 200
    const lastOne = Math.ceil(count / limit)
    // Halving down to a page answered, then bisection between it and the last one refused.
    let low = lastOne
    let high = lastOne + 1
    while (low > 1 && !(await answers(low))) {
      high = low
      low = Math.floor(low / 2)
    }
    while (high - low > 1) {
      const mid = Math.floor((low + high) / 2)
      if (await answers(mid)) low = mid
      else high = mid
    }
    return low
  }
  const deepestPage = await deepestAnswered(PAGE_LIMIT)
  const deepestAtMaxPage = await deepestAnswered(MAX_PAGE_LIMIT)
  // Timed one after another, the bare route right after page 1, whose body it sends.
  const first = await time(`limit=${PAGE_LIMIT}`)
  const bare = await timeBarePage(JSON.stringify((await list(`limit=${PAGE_LIMIT}`)).body), timeUrl)
  const deepest = await time(`page=${deepestPage}&limit=${PAGE_LIMIT}`)
  const deepestAtMax = await time(`page=${deepestAtMaxPage}&limit=${MAX_PAGE_LIMIT}`)
  const rareBuyer = await time(`buyer_email=${encodeURIComponent(RARE_BUYER)}&limit=${PAGE_LIMIT}`)
  // The same two filters asked first with values that keep most (paid by PIX), on every pooled
  // connection, as a dashboard would: were PostgreSQL to settle then on one plan for the
  // prepared statement, blind to the values, it could walk every paid order for the card ones.
  for (let round = 0; round < 10; round++) {
    await Promise.all(
      Array.from({ length: 8 }, () => list(`status=paid&payment_method=pix&limit=${PAGE_LIMIT}`)),
    )
  }
  const paidByCard = await time(`status=paid&payment_method=card&limit=${PAGE_LIMIT}`)
  const filteredDeepest = await time(`status=paid&page=${deepestPage}&limit=${PAGE_LIMIT}`)
  const cursor = await time(`starting_after=${middleId}&limit=${PAGE_LIMIT}`)
  return {
    count,
    seedSeconds,
    first,
    bare,
    deepestPage,
    deepest,
    deepestAtMaxPage,
    deepestAtMax,
    rareBuyer,
    paidByCard,
    filteredDeepest,
    lastPage,
    lastPageStatus: last.status,
    lastPageError: last.status === 200 ? null : String(last.body?.error),
    cursor,
  }
}

/** `timeUrl` against a bare Fastify route (its own process) that sends `body` and nothing else. */
async function timeBarePage(body: string, timeUrl: (url: string) => Promise<Latency>) {
  const server = spawn(process.execPath, [BARE_PAGE_SERVER], {
    env: { ...process.env, BARE_PAGE_BODY: body },
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  try {
    const port = await new Promise<string>((resolve, reject) => {
      server.stdout.once('data', (chunk: Buffer) => resolve(chunk.toString().trim()))
      server.once('exit', (code) => reject(new Error(`bare page server exited: ${code}`)))
    })
    return await timeUrl(`http://127.0.0.1:${port}/`)
  } finally {
    // Gone before the next series is timed: its exit must not land in those samples.
    const exited = new Promise((resolve) => server.once('exit', resolve))
    if (server.kill()) await exited
  }
}
