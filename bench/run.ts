// npm run bench: each scenario on PGlite and PostgreSQL, beside baselines from the same run.
import { mkdirSync, writeFileSync } from 'node:fs'
import { bareFastifyRps, pgbenchTps } from './baselines.ts'
import { serverReachable } from './lib/databases.ts'
import { closeClient } from './lib/http.ts'
import { fmt, printTable } from './lib/table.ts'
import { type BalanceReadResult, balanceRead } from './scenarios/balance-read.ts'
import { type CheckoutPageResult, checkoutPage } from './scenarios/checkout-page.ts'
import { type CheckoutPayResult, checkoutPay } from './scenarios/checkout-pay.ts'
import {
  type WebhookLatency,
  type WebhookThroughput,
  webhookLatency,
  webhookThroughput,
} from './scenarios/webhook-delivery.ts'

const seconds = Number(process.env.BENCH_SECONDS ?? 10)
const buyers = Number(process.env.BENCH_BUYERS ?? 8)
const ledgerOrders = Number(process.env.BENCH_LEDGER_ORDERS ?? 1_000_000)
const webhookDeliveries = Number(process.env.BENCH_WEBHOOK_DELIVERIES ?? 20_000)
/** BENCH_ONLY=checkout|balance|webhooks runs one group (the baselines come with checkout). */
const only = process.env.BENCH_ONLY
const wants = (group: 'checkout' | 'balance' | 'webhooks') => !only || only === group
const engines = (hasServer: boolean) =>
  hasServer ? (['pglite', 'postgres'] as const) : (['pglite'] as const)

const hasServer = await serverReachable()
if (!hasServer)
  console.log('PostgreSQL server not reachable: PostgreSQL rows and pgbench are skipped.')

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
    },
    null,
    2,
  ),
)
console.log('\nWritten to bench/results/latest.json')
