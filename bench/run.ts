// npm run bench: each scenario on PGlite and PostgreSQL, beside baselines from the same run.
import { mkdirSync, writeFileSync } from 'node:fs'
import { MAX_PAGE_LIMIT } from '../src/kit/http/pagination.ts'
import { closeBrowser } from '../test/setup/browser.ts'
import { bareFastifyRps, bracketed, pgbenchLaunch, pgbenchTps } from './baselines.ts'
import { serverReachable } from './lib/databases.ts'
import { closeClient } from './lib/http.ts'
import type { Latency } from './lib/latency.ts'
import { fmt, printTable } from './lib/table.ts'
import { type BalanceReadResult, balanceRead } from './scenarios/balance-read.ts'
import { type CheckoutPageResult, checkoutPage } from './scenarios/checkout-page.ts'
import { type CheckoutPayResult, checkoutPay } from './scenarios/checkout-pay.ts'
import {
  type CheckoutTraffic,
  checkoutTraffic,
  type RequestCost,
} from './scenarios/checkout-traffic.ts'
import { dashboardPage, type PageLoad } from './scenarios/dashboard-page.ts'
import {
  type LaunchDayResult,
  launchDay,
  PAGE_LIMIT,
  RARE_BUYER_ORDERS,
} from './scenarios/launch-day.ts'
import {
  type WebhookLatency,
  type WebhookThroughput,
  webhookLatency,
  webhookThroughput,
} from './scenarios/webhook-delivery.ts'

/** BENCH_QUICK=1: shorter windows and smaller seeds, for a whole run in a few minutes. */
const quick = process.env.BENCH_QUICK === '1'
const seconds = Number(process.env.BENCH_SECONDS ?? (quick ? 5 : 10))
const buyers = Number(process.env.BENCH_BUYERS ?? 8)
const launchBuyers = Number(process.env.BENCH_LAUNCH_BUYERS ?? 16)
/**
 * Launch day's closed-loop warm-up before each measured window, so the window measures a
 * running service, not its start: V8 was still optimizing ~90 functions a second 15 s in
 * (~13 % of the service's CPU then, on background threads) and ~5 a second from 50 s on
 * (2026-11-27, `--trace-opt`).
 */
const launchWarmUp = Number(process.env.BENCH_LAUNCH_WARMUP ?? (quick ? 8 : 60))
const launchOrders = Number(process.env.BENCH_LAUNCH_ORDERS ?? (quick ? 100_000 : 1_000_000))
const ledgerOrders = Number(process.env.BENCH_LEDGER_ORDERS ?? (quick ? 100_000 : 1_000_000))
const webhookDeliveries = Number(process.env.BENCH_WEBHOOK_DELIVERIES ?? (quick ? 5_000 : 20_000))
/** BENCH_ONLY=launch|checkout|pages|balance|webhooks runs one group (baselines come with their group). */
const only = process.env.BENCH_ONLY
const wants = (group: 'launch' | 'checkout' | 'pages' | 'balance' | 'webhooks') =>
  !only || only === group
const engines = (hasServer: boolean) =>
  hasServer ? (['pglite', 'postgres'] as const) : (['pglite'] as const)

const hasServer = await serverReachable()
if (!hasServer)
  console.log('PostgreSQL server not reachable: PostgreSQL rows and pgbench are skipped.')

let launch: {
  pgbench: ReturnType<typeof bracketed>
  run: LaunchDayResult
  split: LaunchDayResult | null
  oneEndpoint: WebhookThroughput
  traffic: CheckoutTraffic
} | null = null
if (wants('launch') && hasServer) {
  console.log(`Launch day: pgbench -c ${launchBuyers} (${seconds} s, before and after)…`)
  const before = await pgbenchLaunch(seconds, launchBuyers)
  const after: (typeof before)[] = []
  console.log(
    `Launch day: ${launchBuyers} buyers of one product (${seconds} s), 100/s offered, ${launchOrders} orders listed…`,
  )
  // BENCH_LAUNCH_AFFILIATE=1: every buyer comes through one affiliate's link.
  const affiliate = process.env.BENCH_LAUNCH_AFFILIATE === '1'
  // BENCH_LAUNCH_SMTP=0: mails stay in the dev mailbox (a diagnosis of what sending costs).
  const smtp = process.env.BENCH_LAUNCH_SMTP !== '0'
  // BENCH_LAUNCH_IDEMPOTENCY=1: every checkout carries an Idempotency-Key, as the hosted page's do.
  const idempotencyKeys = process.env.BENCH_LAUNCH_IDEMPOTENCY === '1'
  const run = await launchDay({
    seconds,
    buyers: launchBuyers,
    offeredPerSecond: 100,
    orders: launchOrders,
    warmUpSeconds: launchWarmUp,
    affiliate,
    smtp,
    idempotencyKeys,
    // BENCH_LAUNCH_OVERLOAD=0 skips the overload window (twice the closed loop's rate offered).
    overload: process.env.BENCH_LAUNCH_OVERLOAD !== '0',
    afterWindow: async () => {
      after.push(await pgbenchLaunch(seconds, launchBuyers))
    },
  })
  if (!after[0]) throw new Error('launch day ran no second pgbench')
  const baseline = bracketed(before, after[0])
  // BENCH_LAUNCH_SPLIT=0 skips the start:api + start:worker run.
  const withSplit = process.env.BENCH_LAUNCH_SPLIT !== '0'
  if (withSplit) console.log('Launch day: the same with start:api + start:worker…')
  const split = withSplit
    ? await launchDay({
        seconds,
        buyers: launchBuyers,
        offeredPerSecond: 100,
        orders: 0,
        warmUpSeconds: launchWarmUp,
        split: true,
        affiliate,
        smtp,
        idempotencyKeys,
      })
    : null
  console.log(`Launch day: ${webhookDeliveries} deliveries to one endpoint, 1 worker process…`)
  const oneEndpoint = await webhookThroughput({
    workers: 1,
    deliveries: webhookDeliveries,
    endpoints: 1,
  })
  console.log("Launch day: the checkout page's own requests (session patches, status polls)…")
  const traffic = await checkoutTraffic(Math.min(seconds, 10))
  launch = { pgbench: baseline, run, split, oneEndpoint, traffic }
}

const withCheckout = wants('checkout')
if (withCheckout) console.log(`Baselines (${seconds} s each)…`)
const pgbench = hasServer && withCheckout ? await pgbenchTps(seconds) : Number.NaN
const fastify = withCheckout ? await bareFastifyRps(Math.min(seconds, 5)) : Number.NaN

const runs: CheckoutPayResult[] = []
for (const engine of withCheckout ? engines(hasServer) : []) {
  console.log(`checkout + pay on ${engine} (${buyers} concurrent buyers, ${seconds} s)…`)
  runs.push(await checkoutPay({ engine, seconds, buyers }))
}
const pages: CheckoutPageResult[] = []
for (const engine of withCheckout ? engines(hasServer) : []) {
  console.log(`checkout page on ${engine} (10 connections, ${Math.min(seconds, 5)} s)…`)
  pages.push(await checkoutPage({ engine, seconds: Math.min(seconds, 5) }))
}
let pageLoads: PageLoad[] = []
if (wants('pages')) {
  console.log('first loads of the checkout and the dashboard in Chromium (5 cold loads each)…')
  pageLoads = await dashboardPage()
}
// The checkout and dashboard pages' Chromium, which would keep this process alive.
await closeBrowser()
const reads: BalanceReadResult[] = []
for (const engine of wants('balance') ? engines(hasServer) : []) {
  console.log(`balance read on ${engine} (100 vs ${ledgerOrders} orders, ${seconds} s)…`)
  reads.push(await balanceRead({ engine, seconds, orders: ledgerOrders }))
}
const deliveries: WebhookThroughput[] = []
let delivery: WebhookLatency | null = null
if (wants('webhooks') && hasServer) {
  for (const workers of [1, 2]) {
    console.log(
      `webhook deliveries on postgres (${webhookDeliveries}, ${workers} worker processes)…`,
    )
    deliveries.push(await webhookThroughput({ workers, deliveries: webhookDeliveries }))
  }
  console.log(`order.paid → receiver latency on postgres (100 events/s, ${seconds} s)…`)
  delivery = await webhookLatency({ ratePerSecond: 100, seconds })
}
closeClient()

if (launch) {
  printLaunch(launch)
  printSplit(launch)
}

if (withCheckout) {
  console.log('\nBaselines measured in this run')
  printTable(
    ['baseline', 'throughput'],
    [
      ['pgbench TPC-B, 8 clients', `${fmt(pgbench, 0)} tps`],
      ['bare Fastify GET, 10 connections', `${fmt(fastify, 0)} req/s`],
    ],
  )
  console.log('\nScenario: checkout create + sandbox pay (one purchase = both calls)')
  printTable(
    [
      'engine',
      'purchases/s',
      'p50 ms',
      'p99 ms',
      'create p50/p99',
      'pay p50/p99',
      'errors',
      'vs pgbench',
      'vs Fastify',
    ],
    runs.map((r) => [
      r.engine,
      fmt(r.perSecond),
      fmt(r.purchase.percentile(50)),
      fmt(r.purchase.percentile(99)),
      `${fmt(r.create.percentile(50))} / ${fmt(r.create.percentile(99))}`,
      `${fmt(r.pay.percentile(50))} / ${fmt(r.pay.percentile(99))}`,
      r.errors,
      `${fmt((r.perSecond / pgbench) * 100, 2)} %`,
      `${fmt((r.perSecond / fastify) * 100, 2)} %`,
    ]),
  )
  console.log('\nScenario: the hosted checkout page (GET /checkout/<slug>; first load in Chromium)')
  printTable(
    ['engine', 'req/s', 'p50 ms', 'p99 ms', 'errors', 'vs Fastify', 'first load', 'target'],
    pages.map((p) => [
      p.engine,
      fmt(p.requestsPerSecond, 0),
      fmt(p.p50, 0),
      fmt(p.p99, 0),
      p.errors,
      `${fmt((p.requestsPerSecond / fastify) * 100, 1)} %`,
      `${fmt(p.firstLoadBytes / 1024)} KB in ${p.firstLoadRequests} requests`,
      p.firstLoadBytes < 60 * 1024 ? 'under 60 KB: yes' : 'under 60 KB: NO',
    ]),
  )
}

if (pageLoads.length) {
  console.log('\nScenario: first load in Chromium, empty cache (median of 5 for the time)')
  printTable(
    ['page', 'bytes', 'requests', 'usable after (DOMContentLoaded)'],
    pageLoads.map((p) => [
      p.page,
      `${fmt(p.bytes / 1024)} KB`,
      p.requests,
      `${fmt(p.usableMs, 0)} ms`,
    ]),
  )
}

const ratio = (r: BalanceReadResult, kind: 'http' | 'db') =>
  r.large[kind].percentile(99) / r.small[kind].percentile(99)
if (reads.length) {
  console.log(
    `\nScenario: GET /api/balance, 100 orders vs ${ledgerOrders} (p99 must stay within 2×)`,
  )
  printTable(
    [
      'engine',
      'seed s',
      'HTTP p50/p99 100',
      'HTTP p50/p99 large',
      'p99 ×',
      'DB p99 100 / large',
      'p99 ×',
      'errors',
    ],
    reads.map((r) => [
      r.engine,
      fmt(r.seedSeconds),
      `${fmt(r.small.http.percentile(50), 2)} / ${fmt(r.small.http.percentile(99), 2)}`,
      `${fmt(r.large.http.percentile(50), 2)} / ${fmt(r.large.http.percentile(99), 2)}`,
      fmt(ratio(r, 'http'), 2),
      `${fmt(r.small.db.percentile(99), 3)} / ${fmt(r.large.db.percentile(99), 3)}`,
      fmt(ratio(r, 'db'), 2),
      r.errors,
    ]),
  )
}

if (deliveries.length && delivery) {
  console.log('\nScenario: webhook delivery on PostgreSQL, worker processes apart from the API')
  printTable(
    ['workers', 'deliveries', 'seconds', 'deliveries/s', 'target'],
    deliveries.map((d) => [
      d.workers,
      d.deliveries,
      fmt(d.seconds, 2),
      fmt(d.perSecond, 0),
      d.perSecond >= 2000 ? '≥ 2,000/s: yes' : '≥ 2,000/s: NO',
    ]),
  )
  const p99 = delivery.latency.percentile(99)
  printTable(
    ['order.paid commits/s', 'events', 'commit → receiver p50', 'p99', 'target'],
    [
      [
        delivery.ratePerSecond,
        delivery.events,
        `${fmt(delivery.latency.percentile(50))} ms`,
        `${fmt(p99)} ms`,
        p99 < 250 ? 'p99 < 250 ms: yes' : 'p99 < 250 ms: NO',
      ],
    ],
  )
}

mkdirSync('bench/results', { recursive: true })
writeFileSync(
  'bench/results/latest.json',
  JSON.stringify(
    {
      at: new Date().toISOString(),
      seconds,
      buyers,
      baselines: { pgbenchTps: pgbench, bareFastifyRps: fastify },
      checkoutPay: runs.map((r) => ({
        engine: r.engine,
        purchasesPerSecond: r.perSecond,
        purchase: { p50: r.purchase.percentile(50), p99: r.purchase.percentile(99) },
        create: { p50: r.create.percentile(50), p99: r.create.percentile(99) },
        pay: { p50: r.pay.percentile(50), p99: r.pay.percentile(99) },
        errors: r.errors,
      })),
      launchDay: launch && launchJson(launch),
      checkoutPage: pages,
      webhookDeliveries: deliveries,
      webhookLatency: delivery && {
        ratePerSecond: delivery.ratePerSecond,
        events: delivery.events,
        p50: delivery.latency.percentile(50),
        p99: delivery.latency.percentile(99),
      },
      balanceRead: reads.map((r) => ({
        engine: r.engine,
        orders: { small: r.small.orders, large: r.large.orders },
        seedSeconds: r.seedSeconds,
        httpP99: { small: r.small.http.percentile(99), large: r.large.http.percentile(99) },
        dbP99: { small: r.small.db.percentile(99), large: r.large.db.percentile(99) },
        p99Ratio: { http: ratio(r, 'http'), db: ratio(r, 'db') },
        errors: r.errors,
      })),
      pageLoads,
    },
    null,
    2,
  ),
)
console.log('\nWritten to bench/results/latest.json')

/**
 * The hosted checkout's requests besides the purchase, each beside what a buyer makes of them:
 * a PIX buyer's page polls every 2 s while in view for its first two minutes, so one who pays
 * in a minute polls 30 times (none while the page is hidden); a form filled in sends about four
 * session patches (name, CPF, phone, one pause mid-field; an assumption, not measured).
 */
function trafficRows(traffic: CheckoutTraffic, machinePerPurchaseMs: number) {
  const row = (figure: string, cost: RequestCost, perBuyer: number, buyer: string) => {
    const buyerMs = (perBuyer * (cost.serviceCpuUs + cost.pgCpuUs)) / 1000
    return [
      figure,
      `${fmt(cost.perSecond, 0)}/s`,
      `service ${fmt(cost.serviceCpuUs, 0)} µs + PostgreSQL ${fmt(cost.pgCpuUs, 0)} µs a request, ${fmt(cost.statements, 2)} statements, ${fmt(cost.walSyncs, 2)} WAL syncs (loop busy ${fmt(cost.loopBusy * 100, 0)} %, p99 ${cost.p99Ms} ms, errors ${cost.errors}); ${buyer}: ${fmt(buyerMs, 2)} ms, ${fmt(buyerMs / machinePerPurchaseMs, 2)} × the purchase's machine CPU`,
      '',
    ]
  }
  return [
    row('checkout session patches, one process', traffic.sessionPatch, 4, 'four for a form'),
    row(
      'checkout status polls, one process',
      traffic.statusPoll,
      30,
      '30 for a PIX paid in a minute in view',
    ),
  ]
}

function printLaunch(l: NonNullable<typeof launch>): void {
  const { pgbench: b, run: r, oneEndpoint, traffic } = l
  const mark = (ok: boolean) => (ok ? 'yes' : 'NO')
  console.log(
    `\nScenario: launch day — one product, ${r.buyers} buyers (create + sandbox pay${r.affiliate ? ', all through one affiliate link' : ''}${r.idempotencyKeys ? ', each create with an Idempotency-Key' : ''}${r.smtp ? '' : '; mail kept in the dev mailbox, no SMTP: a diagnosis'}), the service in its own process (${r.compiled ? 'compiled JavaScript' : 'tsx'}), PostgreSQL`,
  )
  console.log(
    `Baseline in this run: pgbench TPC-B -c ${launchBuyers}: ${fmt(b.tps, 0)} tps, PostgreSQL CPU ${fmt(b.cpuPerTxMs, 3)} ms per transaction, ${fmt(b.systemCpuPerTxMs, 3)} of it system (before the window ${b.runs.map((x) => `${fmt(x.tps, 0)} tps, ${fmt(x.cpuPerTxMs, 3)} ms`).join('; after it ')})`,
  )
  const webhookP99 = r.webhooks.delay.percentile(99)
  const mailP99 = r.webhooks.mailDelay.percentile(99)
  printTable(
    ['figure', 'measured', 'ratio / note', 'target'],
    [
      [
        'purchases/s',
        fmt(r.perSecond),
        `${fmt(r.perSecond / b.tps, 4)} × pgbench TPS (Medusa 2.21: 0.0005)`,
        `≥ 0.2 ×: ${mark(r.perSecond / b.tps >= 0.2)}`,
      ],
      [
        'purchase p50 / p99',
        `${fmt(r.purchase.percentile(50))} / ${fmt(r.purchase.percentile(99))} ms`,
        `create ${fmt(r.create.percentile(50))} / ${fmt(r.create.percentile(99))}, pay ${fmt(r.pay.percentile(50))} / ${fmt(r.pay.percentile(99))}; errors ${r.errors}`,
        '',
      ],
      [
        'SQL statements per purchase',
        fmt(r.statementsPerPurchase),
        `sent by the service, one round trip each (BEGIN/COMMIT included; a BEGIN sent with its transaction's first statement counts with it); ${fmt(r.commitsPerPurchase)} commits, ${fmt(r.rowsInsertedPerPurchase)} rows inserted, ${fmt(r.rowsUpdatedPerPurchase)} updated`,
        '',
      ],
      [
        'PostgreSQL CPU per purchase',
        `${fmt(r.pgCpuPerPurchaseMs, 2)} ms`,
        `${fmt(r.pgCpuPerPurchaseMs / b.cpuPerTxMs)} × one pgbench transaction; system ${fmt(r.pgSystemCpuPerPurchaseMs, 2)} ms (${fmt(r.pgSystemCpuPerPurchaseMs / b.systemCpuPerTxMs)} × pgbench's)`,
        `≤ 5 ×: ${mark(r.pgCpuPerPurchaseMs / b.cpuPerTxMs <= 5)}`,
      ],
      [
        'WAL per purchase',
        `${fmt(r.walBytesPerPurchase / 1024, 1)} KiB, ${fmt(r.walSyncsPerPurchase, 2)} syncs`,
        `${fmt(r.walBytesPerPurchase / b.walBytesPerTx)} × the bytes and ${fmt(r.walSyncsPerPurchase / b.walSyncsPerTx)} × the syncs of one pgbench transaction (pg_stat_wal)`,
        '',
      ],
      [
        'service CPU per purchase',
        `${fmt(r.serviceCpuPerPurchaseMs, 2)} ms`,
        `user + system (${fmt(r.serviceSystemCpuPerPurchaseMs, 2)} ms) of the service process ÷ purchases, after ${r.warmUpSeconds} s of warm-up (whose own: ${fmt(r.warmUpCpuPerPurchaseMs, 2)} ms); event loop busy ${fmt(100 * r.serviceLoopBusy, 0)} % of the window; ${fmt(r.serviceSwitchesPerPurchase, 1)} context switches a purchase (${fmt(r.servicePreemptionsPerPurchase, 1)} preempted)`,
        `≤ 5 ms: ${mark(r.serviceCpuPerPurchaseMs <= 5)}`,
      ],
      [
        'machine CPU per purchase',
        `${fmt(r.machineCpuPerPurchaseMs, 2)} ms`,
        `${fmt(r.machineCpuPerPurchaseMs / b.machineCpuPerTxMs)} × a pgbench transaction's ${fmt(b.machineCpuPerTxMs, 2)} ms (/proc/stat: every process and the kernel); of it the service ${fmt(r.serviceCpuPerPurchaseMs, 2)}, PostgreSQL's backends ${fmt(r.pgCpuPerPurchaseMs, 2)}, the bench's buyers, receiver and sink ${fmt(r.benchCpuPerPurchaseMs, 2)}, the rest ${fmt(r.machineCpuPerPurchaseMs - r.serviceCpuPerPurchaseMs - r.pgCpuPerPurchaseMs - r.benchCpuPerPurchaseMs, 2)}; cores idle ${fmt(100 * r.machineIdleShare, 0)} % of the window (pgbench's ${fmt(100 * b.machineIdleShare, 0)} %)${r.machineStolenShare >= 0.005 ? `, taken by the host ${fmt(100 * r.machineStolenShare, 0)} %` : ''}`,
        '',
      ],
      [
        'gateway checks left open',
        fmt(r.openChecksPerPaidOrder, 2),
        'per paid order after the run: each a look-up the reconciliation makes minutes after the sale, outside the window',
        '',
      ],
      [
        'service RSS peak',
        `${fmt(r.rssPeakMiB, 0)} MiB`,
        'over the closed and the open loop',
        `< 200 MiB: ${mark(r.rssPeakMiB < 200)}`,
      ],
      [
        `webhook delay at ${r.webhooks.offeredPerSecond}/s offered`,
        `p50 ${fmt(r.webhooks.delay.percentile(50))} / p99 ${fmt(webhookP99)} ms`,
        `created → receiver; ${r.webhooks.delay.count} events, ${fmt(r.webhooks.achievedPerSecond)}/s achieved, errors ${r.webhooks.errors}`,
        `p99 < 250 ms: ${mark(webhookP99 < 250)}`,
      ],
      [
        `e-mail delay at ${r.webhooks.offeredPerSecond}/s offered`,
        `p50 ${fmt(r.webhooks.mailDelay.percentile(50))} / p99 ${fmt(mailP99)} ms`,
        `queued → ${r.smtp ? 'accepted by SMTP (a sink in the bench)' : 'marked sent (no SMTP)'}; ${r.webhooks.mailDelay.count} mails, ${r.webhooks.mailsUnsent} unsent after 1 min`,
        `p99 < 5 s: ${mark(mailP99 < 5000 && r.webhooks.mailsUnsent === 0)}`,
      ],
      ...overloadRows(r.overload),
      [
        'deliveries/s, one endpoint',
        fmt(oneEndpoint.perSecond, 0),
        `${oneEndpoint.deliveries} deliveries, 1 worker process`,
        `≥ 1,000/s: ${mark(oneEndpoint.perSecond >= 1000)}`,
      ],
      ...trafficRows(traffic, r.machineCpuPerPurchaseMs),
      ...ordersRows(r.orders),
    ],
  )
  console.log('\nRows per purchase by table (pg_stat_user_tables over the closed loop)')
  printTable(
    ['table', 'inserted', 'updated', 'of them HOT', 'deleted'],
    r.tables.map((t) => [
      t.table,
      fmt(t.inserted, 2),
      fmt(t.updated, 2),
      fmt(t.hot, 2),
      fmt(t.deleted, 2),
    ]),
  )
  console.log(`Indexes of those tables no query used: ${r.unusedIndexes.join(', ') || 'none'}`)
  if (r.statementTexts.length) {
    console.log('\nStatements per purchase by text (BENCH_STATEMENT_TEXTS=1)')
    printTable(
      ['per purchase', 'statement'],
      r.statementTexts.map((t) => [fmt(t.perPurchase, 2), t.text]),
    )
  }
}

function ordersRows(o: LaunchDayResult['orders']): string[][] {
  if (!o) return []
  const deepP99 = o.deepest.percentile(99)
  const mark = (ok: boolean) => (ok ? 'yes' : 'NO')
  return [
    [
      `orders list, ${o.count} orders, page 1`,
      `p50 ${fmt(o.first.percentile(50), 2)} / p99 ${fmt(o.first.percentile(99), 2)} ms`,
      `limit ${PAGE_LIMIT}, 1 client (seeded in ${fmt(o.seedSeconds)} s)`,
      '',
    ],
    [
      `orders list, page ${o.deepestPage} (deepest answered)`,
      `p50 ${fmt(o.deepest.percentile(50), 2)} / p99 ${fmt(deepP99, 2)} ms`,
      o.lastPageStatus === 200
        ? `the last page (${o.lastPage}) answers`
        : `page ${o.lastPage}: ${o.lastPageStatus} "${o.lastPageError}"`,
      `p99 < 10 ms: ${mark(deepP99 < 10)}`,
    ],
    [
      `orders list, page ${o.deepestAtMaxPage} of ${MAX_PAGE_LIMIT} (deepest answered)`,
      `p50 ${fmt(o.deepestAtMax.percentile(50), 2)} / p99 ${fmt(o.deepestAtMax.percentile(99), 2)} ms`,
      `limit ${MAX_PAGE_LIMIT}, the API's largest: as deep, twice the rows`,
      `p99 < 10 ms: ${mark(o.deepestAtMax.percentile(99) < 10)}`,
    ],
    [
      `orders list, buyer_email (${RARE_BUYER_ORDERS} of them)`,
      `p50 ${fmt(o.rareBuyer.percentile(50), 2)} / p99 ${fmt(o.rareBuyer.percentile(99), 2)} ms`,
      'page 1 of a filter that keeps few: one buyer among them all',
      `p99 < 10 ms: ${mark(o.rareBuyer.percentile(99) < 10)}`,
    ],
    [
      `orders list, status=paid&payment_method=card (${RARE_BUYER_ORDERS})`,
      `p50 ${fmt(o.paidByCard.percentile(50), 2)} / p99 ${fmt(o.paidByCard.percentile(99), 2)} ms`,
      'page 1 of two filters, one keeping most, one few: the rarer one walked',
      `p99 < 10 ms: ${mark(o.paidByCard.percentile(99) < 10)}`,
    ],
    [
      `orders list, status=paid, page ${o.deepestPage}`,
      `p50 ${fmt(o.filteredDeepest.percentile(50), 2)} / p99 ${fmt(o.filteredDeepest.percentile(99), 2)} ms`,
      'the deepest page with a filter',
      `p99 < 10 ms: ${mark(o.filteredDeepest.percentile(99) < 10)}`,
    ],
    [
      'orders list, starting_after halfway',
      `p50 ${fmt(o.cursor.percentile(50), 2)} / p99 ${fmt(o.cursor.percentile(99), 2)} ms`,
      '',
      `p99 < 10 ms: ${mark(o.cursor.percentile(99) < 10)}`,
    ],
    [
      'baseline: bare Fastify, page 1',
      `p50 ${fmt(o.bare.percentile(50), 2)} / p99 ${fmt(o.bare.percentile(99), 2)} ms`,
      "page 1's body from a route that does nothing else, the same client: this machine's floor",
      '',
    ],
  ]
}

/** Twice the closed loop's rate offered: what load shedding turned away and what completed. */
function overloadRows(o: LaunchDayResult['overload']): string[][] {
  if (!o) return []
  const ms = (l: Latency) => `p50 ${fmt(l.percentile(50))} / p99 ${fmt(l.percentile(99))} ms`
  return [
    [
      `overload: ${o.offeredPerSecond}/s offered`,
      `${fmt(o.completedPerSecond)}/s paid`,
      `twice the closed loop's rate for ${o.seconds} s, each buyer on a connection of its own; shed ${fmt((100 * o.shed) / o.offered, 0)} % of the checkouts (503 answered in ${ms(o.shedAnswer)}), the paid purchases in ${ms(o.completed)}, other errors ${o.errors}, RSS peak ${fmt(o.rssPeakMiB, 0)} MiB`,
      '',
    ],
  ]
}

/** npm start beside start:api + start:worker: the figures the split changes. */
function printSplit(l: NonNullable<typeof launch>): void {
  if (!l.split) return
  console.log('\nnpm start (one process) vs start:api + start:worker (two), same load')
  const row = (name: string, r: LaunchDayResult) => [
    name,
    fmt(r.perSecond),
    fmt(r.perSecond / l.pgbench.tps, 4),
    `${fmt(r.serviceCpuPerPurchaseMs, 2)} ms`,
    r.workerRssPeakMiB === null
      ? `${fmt(r.rssPeakMiB, 0)} MiB`
      : `${fmt(r.rssPeakMiB, 0)} + ${fmt(r.workerRssPeakMiB, 0)} MiB`,
    `${fmt(r.webhooks.delay.percentile(50))} / ${fmt(r.webhooks.delay.percentile(99))} ms`,
    fmt(r.webhooks.achievedPerSecond),
  ]
  printTable(
    [
      'mode',
      'purchases/s',
      '× pgbench',
      'service CPU / purchase',
      'RSS peak',
      'webhook p50 / p99 at 100/s',
      'achieved/s',
    ],
    [row('npm start', l.run), row('start:api + start:worker', l.split)],
  )
}

function launchJson(l: NonNullable<typeof launch>) {
  const { run: r } = l
  const p = (lat: { percentile(p: number): number }) => ({
    p50: lat.percentile(50),
    p99: lat.percentile(99),
  })
  return {
    pgbench: l.pgbench,
    compiled: r.compiled,
    affiliate: r.affiliate,
    idempotencyKeys: r.idempotencyKeys,
    smtp: r.smtp,
    buyers: r.buyers,
    purchasesPerSecond: r.perSecond,
    ratioToPgbench: r.perSecond / l.pgbench.tps,
    purchase: p(r.purchase),
    create: p(r.create),
    pay: p(r.pay),
    errors: r.errors,
    statementsPerPurchase: r.statementsPerPurchase,
    commitsPerPurchase: r.commitsPerPurchase,
    rowsInsertedPerPurchase: r.rowsInsertedPerPurchase,
    rowsUpdatedPerPurchase: r.rowsUpdatedPerPurchase,
    tables: r.tables,
    unusedIndexes: r.unusedIndexes,
    statementTexts: r.statementTexts,
    pgCpuPerPurchaseMs: r.pgCpuPerPurchaseMs,
    pgCpuRatioToPgbenchTx: r.pgCpuPerPurchaseMs / l.pgbench.cpuPerTxMs,
    walBytesPerPurchase: r.walBytesPerPurchase,
    walSyncsPerPurchase: r.walSyncsPerPurchase,
    serviceCpuPerPurchaseMs: r.serviceCpuPerPurchaseMs,
    serviceSystemCpuPerPurchaseMs: r.serviceSystemCpuPerPurchaseMs,
    serviceLoopBusy: r.serviceLoopBusy,
    serviceSwitchesPerPurchase: r.serviceSwitchesPerPurchase,
    servicePreemptionsPerPurchase: r.servicePreemptionsPerPurchase,
    warmUpSeconds: r.warmUpSeconds,
    warmUpCpuPerPurchaseMs: r.warmUpCpuPerPurchaseMs,
    rssPeakMiB: r.rssPeakMiB,
    webhooks: { ...r.webhooks, delay: p(r.webhooks.delay), mailDelay: p(r.webhooks.mailDelay) },
    overload: r.overload && {
      ...r.overload,
      shedAnswer: p(r.overload.shedAnswer),
      completed: p(r.overload.completed),
    },
    deliveriesPerSecondOneEndpoint: l.oneEndpoint.perSecond,
    checkoutTraffic: l.traffic,
    orders: r.orders && {
      ...r.orders,
      first: p(r.orders.first),
      deepest: p(r.orders.deepest),
      deepestAtMax: p(r.orders.deepestAtMax),
      rareBuyer: p(r.orders.rareBuyer),
      paidByCard: p(r.orders.paidByCard),
      filteredDeepest: p(r.orders.filteredDeepest),
      cursor: p(r.orders.cursor),
      bare: p(r.orders.bare),
    },
    split: l.split && {
      purchasesPerSecond: l.split.perSecond,
      ratioToPgbench: l.split.perSecond / l.pgbench.tps,
      serviceCpuPerPurchaseMs: l.split.serviceCpuPerPurchaseMs,
      rssPeakMiB: { api: l.split.rssPeakMiB, worker: l.split.workerRssPeakMiB },
      webhooks: {
        ...l.split.webhooks,
        delay: p(l.split.webhooks.delay),
        mailDelay: p(l.split.webhooks.mailDelay),
      },
    },
  }
}
