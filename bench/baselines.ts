// Baselines measured in the same run, so noisy shared machines compare against themselves.
import { execFile } from 'node:child_process'
import type { AddressInfo } from 'node:net'
import { promisify } from 'node:util'
import autocannon from 'autocannon'
import Fastify from 'fastify'
import { createServerDatabase, SERVER_URL } from './lib/databases.ts'
import { machineCpu, machineDelta } from './lib/machine-cpu.ts'
import { backendCpu, walCounters } from './lib/pg-cpu.ts'

const run = promisify(execFile)

/**
 * pgbench's connection flags for the bench's server, over the same transport as the service's
 * (TCP, or the Unix socket a `postgres://user@%2Fvar%2Frun%2Fpostgresql/db` URL names).
 */
function pgbenchConnection(): string[] {
  const { hostname, port, username } = new URL(SERVER_URL)
  return ['-h', decodeURIComponent(hostname), '-p', port || '5432', '-U', username || 'postgres']
}

/** pgbench TPC-B (8 clients) on a fresh scale-10 database: transactions per second. */
export async function pgbenchTps(seconds: number): Promise<number> {
  const db = await createServerDatabase('vitrine_pgbench')
  const conn = pgbenchConnection()
  try {
    await run('pgbench', [...conn, '-i', '-q', '-s', '10', db.name])
    const { stdout } = await run('pgbench', [
      ...conn,
      '-c',
      '8',
      '-j',
      '2',
      '-T',
      String(seconds),
      db.name,
    ])
    const match = /tps = ([\d.]+)/.exec(stdout)
    if (!match) throw new Error(`pgbench printed no tps:\n${stdout}`)
    return Number(match[1])
  } finally {
    await db.drop()
  }
}

/**
 * The launch-day baseline: `pgbench -i` (scale 1 unless BENCH_PGBENCH_SCALE) then
 * `pgbench -c 16 -T <seconds>` on its own fresh database; TPS and the PostgreSQL CPU (its
 * backends' user + system time) per transaction.
 */
export async function pgbenchLaunch(
  seconds: number,
  clients = 16,
): Promise<{
  tps: number
  transactions: number
  cpuPerTxMs: number
  systemCpuPerTxMs: number
  walBytesPerTx: number
  walSyncsPerTx: number
  /** The whole machine's CPU (PostgreSQL, pgbench's clients, the kernel) per transaction. */
  machineCpuPerTxMs: number
  machineIdleShare: number
}> {
  const db = await createServerDatabase('vitrine_pgbench')
  const conn = pgbenchConnection()
  const scale = process.env.BENCH_PGBENCH_SCALE ?? '1'
  try {
    // A checkpoint first, so the runs before and after the launch window start alike: one that
    // falls between the tables' writing and the run (the window's WAL brings them on) makes
    // each page's first change in the run log a full image of the page.
    await run('psql', [...conn, '-d', db.name, '-qc', 'CHECKPOINT'])
    await run('pgbench', [...conn, '-i', '-q', '-s', scale, db.name])
    const cpu = backendCpu(SERVER_URL, db.name, 100)
    const walBefore = await walCounters(SERVER_URL)
    await cpu.start()
    const args = [...conn, '-c', String(clients), '-j', '2', '-T', String(seconds), db.name]
    const machineBefore = machineCpu()
    const { stdout } = await run('pgbench', args)
    const machine = machineDelta(machineBefore, machineCpu())
    const cpuSeconds = await cpu.stop()
    const walAfter = await walCounters(SERVER_URL)
    const tps = /tps = ([\d.]+)/.exec(stdout)
    const done = /number of transactions actually processed: (\d+)/.exec(stdout)
    if (!tps || !done) throw new Error(`pgbench printed no tps:\n${stdout}`)
    const transactions = Number(done[1])
    return {
      tps: Number(tps[1]),
      transactions,
      cpuPerTxMs: (cpuSeconds.total * 1000) / transactions,
      systemCpuPerTxMs: (cpuSeconds.system * 1000) / transactions,
      walBytesPerTx: (walAfter.bytes - walBefore.bytes) / transactions,
      walSyncsPerTx: (walAfter.syncs - walBefore.syncs) / transactions,
      machineCpuPerTxMs: (machine.busy * 1000) / transactions,
      machineIdleShare: machine.idleShare,
    }
  } finally {
    await db.drop()
  }
}

type LaunchBaseline = Awaited<ReturnType<typeof pgbenchLaunch>>

/**
 * Two pgbench runs taken as one: the launch window measured between them, so a machine whose
 * speed drifts over the minutes of a run (these are shared) biases the ratios less than one
 * run before it did (TPC-B's CPU per transaction moved 1.0–1.9 ms between runs here). TPS is
 * their mean; CPU and WAL per transaction are their totals over both runs' transactions.
 */
export function bracketed(before: LaunchBaseline, after: LaunchBaseline) {
  const transactions = before.transactions + after.transactions
  const perTx = (pick: (b: LaunchBaseline) => number) =>
    (pick(before) * before.transactions + pick(after) * after.transactions) / transactions
  return {
    tps: (before.tps + after.tps) / 2,
    transactions,
    cpuPerTxMs: perTx((b) => b.cpuPerTxMs),
    systemCpuPerTxMs: perTx((b) => b.systemCpuPerTxMs),
    walBytesPerTx: perTx((b) => b.walBytesPerTx),
    walSyncsPerTx: perTx((b) => b.walSyncsPerTx),
    machineCpuPerTxMs: perTx((b) => b.machineCpuPerTxMs),
    machineIdleShare: (before.machineIdleShare + after.machineIdleShare) / 2,
    runs: [before, after] as const,
  }
}

/** A bare Fastify JSON route under autocannon (10 connections): requests per second. */
export async function bareFastifyRps(seconds: number): Promise<number> {
  const app = Fastify({ logger: false })
  app.get('/', async () => ({ ok: true }))
  await app.listen({ port: 0, host: '127.0.0.1' })
  const { port } = app.server.address() as AddressInfo
  try {
    const result = await autocannon({
      url: `http://127.0.0.1:${port}/`,
      connections: 10,
      duration: seconds,
    })
    return result.requests.average
  } finally {
    await app.close()
  }
}
