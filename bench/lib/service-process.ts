// The service as `npm start` runs it — its own process, everything in it (ROLE=all unless told)
// — on a fresh PostgreSQL database, with a statement counter loaded in (count-statements.mjs)
// so the bench can ask for its statements, CPU time and RSS over IPC.
import { execFileSync, spawn } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { existsSync, openSync } from 'node:fs'
import { createServer } from 'node:net'
import { fileURLToPath } from 'node:url'
import { createServerDatabase } from './databases.ts'

const ROOT = fileURLToPath(new URL('../../', import.meta.url))
const COUNTER = fileURLToPath(new URL('./count-statements.mjs', import.meta.url))

export interface ServiceStats {
  statements: number
  cpuMicros: number
  /** The kernel's share of cpuMicros (socket reads and writes, mostly). */
  systemMicros: number
  /** The event loop's time running callbacks and waiting for I/O (performance.eventLoopUtilization). */
  loopActiveMs: number
  loopIdleMs: number
  /** The process's context switches, and of them those it did not ask for (preempted). */
  switches: number
  preemptions: number
  rss: number
  rssPeak: number
  /** Statements by text, with BENCH_STATEMENT_TEXTS=1. */
  texts?: Record<string, number> | null
}

/** The share of the time between two readings the event loop was busy (running or in I/O). */
export function loopBusy(before: ServiceStats, after: ServiceStats): number {
  const active = after.loopActiveMs - before.loopActiveMs
  return active / (active + after.loopIdleMs - before.loopIdleMs)
}

/**
 * What `npm start` runs: the compiled build when the project has a build step (built here
 * first, as `prestart` does), else the TypeScript sources through tsx.
 */
export function serviceEntry(): { args: string[]; compiled: boolean } {
  const scripts = JSON.parse(
    execFileSync('node', ['-p', 'JSON.stringify(require("./package.json").scripts)'], {
      cwd: ROOT,
    }).toString(),
  ) as Record<string, string>
  if (scripts.build && process.env.BENCH_SERVICE !== 'tsx') {
    execFileSync('npm', ['run', '--silent', 'build'], { cwd: ROOT, stdio: 'inherit' })
    // The node flags `npm start` gives (source maps), so the service runs as it is run.
    const flags = /\bnode (.*)dist\/main\.js/.exec(scripts.start ?? '')?.[1]?.split(' ') ?? []
    const args = [...flags.filter(Boolean), 'dist/main.js']
    if (existsSync(`${ROOT}/dist/main.js`)) return { args, compiled: true }
  }
  return { args: ['--import', 'tsx', 'src/main.ts'], compiled: false }
}

async function freePort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as { port: number }
  await new Promise((resolve) => server.close(resolve))
  return port
}

export interface ServiceProcess {
  url: string
  databaseUrl: string
  databaseName: string
  compiled: boolean
  /** Whether the workers run in a process of their own (`start:api` + `start:worker`). */
  split: boolean
  /**
   * Statements and CPU summed over the service's processes; RSS of the API process (or the
   * only one), the worker process's own under `worker`.
   */
  stats(): Promise<ServiceStats & { worker: ServiceStats | null }>
  resetPeak(): void
  stop(): Promise<void>
}

/** One service process (node + the statement counter) that answers /health. */
async function spawnService(args: string[], env: Record<string, string>) {
  const port = await freePort()
  const { BASE_URL: _unset, ...inherited } = process.env
  // Logs go where an operator's would (not to the bench's terminal): the cost of writing them
  // is part of the service's CPU.
  const devNull = openSync(process.env.BENCH_SERVICE_STDOUT ?? '/dev/null', 'w')
  // BENCH_NODE_ARGS: extra node flags for the service, e.g. `--cpu-prof --cpu-prof-dir=prof`.
  const nodeArgs = (process.env.BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean)
  const child = spawn(process.execPath, [...nodeArgs, '--import', COUNTER, ...args], {
    cwd: ROOT,
    env: { ...inherited, PORT: String(port), HOST: '127.0.0.1', ...env },
    stdio: ['ignore', devNull, 'inherit', 'ipc'],
  })
  const url = `http://127.0.0.1:${port}`
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  const stop = async () => {
    child.kill('SIGTERM')
    const killer = setTimeout(() => child.kill('SIGKILL'), 10_000)
    await exited
    clearTimeout(killer)
  }
  try {
    for (let i = 0; ; i++) {
      if (child.exitCode !== null) throw new Error(`service exited with ${child.exitCode}`)
      try {
        if ((await fetch(`${url}/health`)).ok) break
      } catch {}
      if (i > 600) throw new Error('service did not answer /health within 60 s')
      await new Promise((r) => setTimeout(r, 100))
    }
  } catch (error) {
    child.kill('SIGKILL')
    await exited
    throw error
  }
  return {
    url,
    stats: () =>
      new Promise<ServiceStats>((resolve) => {
        child.once('message', (m) => resolve(m as ServiceStats))
        child.send('stats')
      }),
    resetPeak: () => child.send('reset-peak'),
    stop,
  }
}

export async function startServiceProcess(
  env: Record<string, string> = {},
  opts: { split?: boolean } = {},
): Promise<ServiceProcess> {
  const db = await createServerDatabase('vitrine_launch')
  const entry = serviceEntry()
  const shared = {
    DATABASE_URL: db.url,
    SEED_DEMO: '0',
    APP_SECRET: randomBytes(32).toString('hex'),
    ALLOW_HTTP_WEBHOOKS: '1',
    // Deployed behind a reverse proxy, as README says to: each buyer's own address arrives in
    // X-Forwarded-For (launch-day.ts), and the per-IP limits keep their production values.
    TRUST_PROXY: '1',
    ...env,
  }
  const started: Awaited<ReturnType<typeof spawnService>>[] = []
  try {
    started.push(await spawnService(entry.args, opts.split ? { ...shared, ROLE: 'api' } : shared))
    if (opts.split) started.push(await spawnService(entry.args, { ...shared, ROLE: 'worker' }))
  } catch (error) {
    await Promise.all(started.map((p) => p.stop()))
    await db.drop()
    throw error
  }
  const [main, worker] = started as [(typeof started)[0], (typeof started)[0] | undefined]
  return {
    url: main.url,
    databaseUrl: db.url,
    databaseName: db.name,
    compiled: entry.compiled,
    split: Boolean(worker),
    async stats() {
      const [a, w] = await Promise.all([main.stats(), worker?.stats() ?? null])
      return {
        ...a,
        statements: a.statements + (w?.statements ?? 0),
        cpuMicros: a.cpuMicros + (w?.cpuMicros ?? 0),
        systemMicros: a.systemMicros + (w?.systemMicros ?? 0),
        texts: a.texts && mergeCounts(a.texts, w?.texts ?? {}),
        worker: w,
      }
    },
    resetPeak() {
      for (const p of started) p.resetPeak()
    },
    async stop() {
      await Promise.all(started.map((p) => p.stop()))
      await db.drop()
    },
  }
}

function mergeCounts(a: Record<string, number>, b: Record<string, number>) {
  const out = { ...a }
  for (const [k, v] of Object.entries(b)) out[k] = (out[k] ?? 0) + v
  return out
}
