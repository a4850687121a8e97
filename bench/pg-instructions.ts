// PostgreSQL instructions per purchase against instructions per pgbench TPC-B transaction,
// counted by callgrind on a cluster run under valgrind (scripts/callgrind-postgres.sh): the
// launch bench's CPU figures move ±10 % with the machine. A purchase's total moved 7.7–9.2 M
// between runs of one code on 2026-11-27 (the workers' batching follows timing, and a generic
// plan made on a tiny table may scan it): compare function by function (CG_LIST=1 names the
// profiles for callgrind_annotate), not totals. Diagnostic only (the issue's figure stays
// `npm run bench`'s).
//
//   bash scripts/callgrind-postgres.sh start
//   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5499/postgres npx tsx bench/pg-instructions.ts
//   bash scripts/callgrind-postgres.sh stop
//
// CG_FUNCTIONS=40: also the 40 functions with the most instructions per purchase (inclusive,
// then their own), summed over every backend's profile.
import { execFile, execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import { promisify } from 'node:util'
import pg from 'pg'
import { type Counts, functionCounts, perUnitCounts } from './lib/callgrind-functions.ts'
import { createServerDatabase, SERVER_URL } from './lib/databases.ts'
import { request } from './lib/http.ts'
import { benchCreator, pixBuyer } from './lib/service.ts'
import { startServiceProcess } from './lib/service-process.ts'
import { startBenchSmtpSink } from './lib/smtp-sink.ts'

const OUT_DIR = process.env.CALLGRIND_DIR ?? '/tmp/vitrine-callgrind/out'
// Fewer than the launch bench's 16: under valgrind, 8 at once already pile up past the sandbox
// callbacks' 10 s time-out now and then (the pay then answers 500 and the run stops).
const buyers = Number(process.env.CG_BUYERS ?? 4)
// Two runs of each, their difference counted: per connection, PostgreSQL plans a statement's
// first runs apart (custom plans), so short runs overstate planning.
const few = Number(process.env.CG_FEW ?? 200)
const many = Number(process.env.CG_MANY ?? 800)
const PRICE_CENTS = 9790
const topFunctions = Number(process.env.CG_FUNCTIONS ?? 0)

interface Instructions {
  total: number
  /** By function, inclusive and own (purchases' runs, with CG_FUNCTIONS). */
  inclusive: Counts
  own: Counts
}

/**
 * Instructions of a database's client backends while `fn` runs and until they exit (callgrind
 * writes a process's counts when it exits; zeroing them in a live backend through vgdb
 * crashed the server here). Fixed costs (connecting, migrating) cancel out in `perUnit`.
 */
async function instructionsOf(
  database: () => string,
  fn: () => Promise<void>,
  byFunction = false,
): Promise<Instructions> {
  const admin = new pg.Client({ connectionString: SERVER_URL })
  await admin.connect()
  const pids = new Set<number>()
  const poll = async () => {
    const { rows } = await admin.query<{ pid: number }>(
      "SELECT pid FROM pg_stat_activity WHERE datname = $1 AND backend_type = 'client backend'",
      [database()],
    )
    for (const { pid } of rows) pids.add(pid)
  }
  let polling = Promise.resolve()
  const timer = setInterval(() => {
    polling = polling.then(poll).catch(() => {})
  }, 100)
  try {
    await fn()
  } finally {
    clearInterval(timer)
    await polling
    await admin.end()
  }
  await new Promise((r) => setTimeout(r, 3_000))
  let total = 0
  // CG_LIST=1: the profiles, for callgrind_annotate.
  if (process.env.CG_LIST)
    console.log(`${database()}: ${[...pids].map((p) => `cg.${p}`).join(' ')}`)
  const paths = [...pids].map((pid) => join(OUT_DIR, `cg.${pid}`))
  for (const path of paths) {
    const totals = /^totals: (\d+)/m.exec(readFileSync(path, 'utf8'))
    if (!totals) throw new Error(`no totals in ${path} (still running?)`)
    total += Number(totals[1])
  }
  if (!byFunction) return { total, inclusive: new Map(), own: new Map() }
  return { total, inclusive: functionCounts(paths, true), own: functionCounts(paths, false) }
}

async function startReceiver() {
  let received = 0
  const server: Server = createServer((req, res) => {
    req.resume()
    req.on('end', () => {
      received++
      res.end('ok')
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}/hook`,
    received: () => received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}

/** Instructions of `count` purchases, each run by a service started for it on a fresh database. */
async function purchasesRun(count: number) {
  const smtp = await startBenchSmtpSink()
  const receiver = await startReceiver()
  let name = ''
  const instructions = await instructionsOf(
    () => name,
    async () => {
      const svc = await startServiceProcess({ SMTP_URL: smtp.url })
      name = svc.databaseName
      const db = new pg.Client({ connectionString: svc.databaseUrl })
      await db.connect()
      try {
        await buyAll(svc, db, receiver, count)
      } finally {
        await db.end()
        await svc.stop()
      }
    },
    topFunctions > 0,
  )
  await receiver.close()
  await smtp.close()
  return instructions
}

async function buyAll(
  svc: Awaited<ReturnType<typeof startServiceProcess>>,
  db: pg.Client,
  receiver: Awaited<ReturnType<typeof startReceiver>>,
  count: number,
) {
  const creator = await benchCreator(svc.url, ['write:products', 'write:webhooks'], PRICE_CENTS)
  const hook = await request(svc.url, 'POST', '/api/v1/webhooks', {
    headers: { authorization: `Bearer ${creator.key}` },
    body: { url: receiver.url, events: ['order.paid'] },
  })
  if (hook.status !== 201) throw new Error(`webhook endpoint: ${hook.status}`)
  let n = 0
  let left = count
  const buy = async () => {
    const i = n++
    const created = await request(svc.url, 'POST', '/api/checkout/create', {
      headers: { 'x-forwarded-for': `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}` },
      body: pixBuyer(creator.productId, i),
    })
    if (created.status !== 201) throw new Error(`checkout: ${created.status}`)
    const payment = await request(svc.url, 'POST', `/sandbox/charges/${created.body.charge_id}/pay`)
    if (payment.status !== 200 || payment.body.callback_status !== 200) {
      throw new Error(`pay: ${payment.status} ${JSON.stringify(payment.body)}`)
    }
  }
  await Promise.all(
    Array.from({ length: buyers }, async () => {
      while (left-- > 0) await buy()
    }),
  )
  // Every purchase's background work too: its webhook delivered, its mails sent.
  for (;;) {
    const { rows } = await db.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM emails WHERE status = 'pending'",
    )
    if (receiver.received() >= count && rows[0]!.n === 0) return
    await new Promise((r) => setTimeout(r, 200))
  }
}

/** Instructions of `transactions` pgbench TPC-B transactions on a fresh scale-1 database. */
async function pgbenchRun(transactions: number) {
  const db = await createServerDatabase('vitrine_pgbench')
  const url = new URL(SERVER_URL)
  const conn = ['-h', url.hostname, '-p', url.port || '5432', '-U', url.username || 'postgres']
  try {
    execFileSync('pgbench', [...conn, '-i', '-q', '-s', '1', db.name], { stdio: 'ignore' })
    const perClient = String(Math.ceil(transactions / buyers))
    return await instructionsOf(
      () => db.name,
      async () => {
        // Not execFileSync: the pid poll runs on this event loop meanwhile.
        await promisify(execFile)('pgbench', [
          ...conn,
          ...['-c', String(buyers), '-j', '2', '-t', perClient, db.name],
        ])
      },
    )
  } finally {
    await db.drop()
  }
}

/** Instructions per unit: the difference of two runs, so each run's fixed costs cancel. */
async function perUnit(run: (count: number) => Promise<Instructions>) {
  const small = await run(few)
  const large = await run(many)
  const units = many - few
  return {
    total: (large.total - small.total) / units,
    inclusive: perUnitCounts(small.inclusive, large.inclusive, units),
    own: perUnitCounts(small.own, large.own, units),
  }
}

const millions = (n: number) => `${(n / 1e6).toFixed(3)} M`
const purchases = await perUnit(purchasesRun)
if (topFunctions) {
  for (const kind of ['inclusive', 'own'] as const) {
    console.log(`Instructions per purchase by function (${kind}):`)
    for (const { name, perUnit } of purchases[kind].slice(0, topFunctions))
      console.log(`  ${millions(perUnit).padStart(9)}  ${name}`)
  }
}
const purchase = purchases.total
const tpcb = (await perUnit(pgbenchRun)).total
console.log(`PostgreSQL instructions (callgrind), ${buyers} clients, ${many} − ${few} of each:`)
console.log(`  per purchase:                  ${millions(purchase)}`)
console.log(`  per pgbench TPC-B transaction: ${millions(tpcb)}`)
console.log(`  ratio:                         ${(purchase / tpcb).toFixed(2)} ×`)
