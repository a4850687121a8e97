// PostgreSQL CPU spent for one database: the user + system time of its backend processes, read
// from /proc (pg_stat_statements needs a server restart to load; this needs nothing). The
// server's shared processes (WAL writer, checkpointer) are left out, for the bench and pgbench
// alike.
import { readFileSync } from 'node:fs'
import pg from 'pg'

const TICKS_PER_SECOND = 100 // CLK_TCK on Linux

/** CPU seconds of a process so far (user + system, and system alone), or null once it is gone. */
export function processCpuSeconds(pid: number): { total: number; system: number } | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    // Fields after the command name (which may hold spaces) start at field 3.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    const system = Number(fields[12]) / TICKS_PER_SECOND
    return { total: Number(fields[11]) / TICKS_PER_SECOND + system, system }
  } catch {
    return null
  }
}

/** Peak resident set size of a process (VmHWM), in bytes. */
export function processPeakRss(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8')
  const kb = /VmHWM:\s+(\d+) kB/.exec(status)?.[1]
  return Number(kb ?? 0) * 1024
}

/**
 * Follows the backends of `database` (polled every `everyMs`, so a backend that exits between
 * polls loses at most that much of its time) and sums their CPU since `start()`.
 */
export function backendCpu(adminUrl: string, database: string, everyMs = 200) {
  const client = new pg.Client({ connectionString: adminUrl })
  type Cpu = { total: number; system: number }
  const first = new Map<number, Cpu>()
  const last = new Map<number, Cpu>()
  let timer: NodeJS.Timeout | null = null
  let polling: Promise<void> = Promise.resolve()
  const poll = async (initial: boolean) => {
    const { rows } = await client.query<{ pid: number }>(
      'SELECT pid FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()',
      [database],
    )
    for (const { pid } of rows) {
      const seconds = processCpuSeconds(pid)
      if (seconds === null) continue
      if (initial) first.set(pid, seconds)
      else if (!first.has(pid)) first.set(pid, { total: 0, system: 0 }) // born after the start: all of it counts
      last.set(pid, seconds)
    }
  }
  return {
    async start() {
      await client.connect()
      await poll(true)
      timer = setInterval(() => {
        polling = polling.then(() => poll(false)).catch(() => {})
      }, everyMs)
    },
    /** CPU seconds of the database's backends since start(): in all, and in the kernel. */
    async stop(): Promise<Cpu> {
      if (timer) clearInterval(timer)
      await polling
      await poll(false)
      await client.end()
      const sum = { total: 0, system: 0 }
      for (const [pid, seconds] of last) {
        sum.total += seconds.total - (first.get(pid)?.total ?? 0)
        sum.system += seconds.system - (first.get(pid)?.system ?? 0)
      }
      return sum
    },
  }
}

/** The database's own counters (pg_stat_database), to take differences of. */
export async function databaseCounters(adminUrl: string, database: string) {
  const client = new pg.Client({ connectionString: adminUrl })
  await client.connect()
  try {
    const { rows } = await client.query<{ commits: string; inserted: string; updated: string }>(
      `SELECT xact_commit AS commits, tup_inserted AS inserted, tup_updated AS updated
       FROM pg_stat_database WHERE datname = $1`,
      [database],
    )
    const r = rows[0]!
    return { commits: Number(r.commits), inserted: Number(r.inserted), updated: Number(r.updated) }
  } finally {
    await client.end()
  }
}

/**
 * The server's WAL counters (pg_stat_wal, cluster-wide: read around a window in which only the
 * measured database is busy): bytes written to the log and the syncs (fsync) it took. Both
 * move with the work, not with the machine's speed.
 */
export async function walCounters(adminUrl: string): Promise<{ bytes: number; syncs: number }> {
  const client = new pg.Client({ connectionString: adminUrl })
  await client.connect()
  try {
    const { rows } = await client.query<{ bytes: string; syncs: string }>(
      'SELECT wal_bytes AS bytes, wal_sync AS syncs FROM pg_stat_wal',
    )
    return { bytes: Number(rows[0]!.bytes), syncs: Number(rows[0]!.syncs) }
  } finally {
    await client.end()
  }
}

export type TableCounters = Record<
  string,
  { inserted: number; updated: number; hot: number; deleted: number }
>

/**
 * Rows written per table (pg_stat_user_tables) of the database at `databaseUrl`: where a
 * purchase's inserted and updated rows come from, to take differences of.
 */
export async function tableCounters(databaseUrl: string): Promise<TableCounters> {
  const client = new pg.Client({ connectionString: databaseUrl })
  await client.connect()
  try {
    const { rows } = await client.query<{ t: string; i: string; u: string; h: string; d: string }>(
      `SELECT relname AS t, n_tup_ins AS i, n_tup_upd AS u, n_tup_hot_upd AS h, n_tup_del AS d
       FROM pg_stat_user_tables`,
    )
    const out: TableCounters = {}
    for (const r of rows) {
      const [inserted, updated, hot, deleted] = [r.i, r.u, r.h, r.d].map(Number) as [
        number,
        number,
        number,
        number,
      ]
      out[r.t] = { inserted, updated, hot, deleted }
    }
    return out
  } finally {
    await client.end()
  }
}

/** after − before, per purchase, the tables that moved, most rows first. */
export function tableDelta(before: TableCounters, after: TableCounters, purchases: number) {
  return Object.entries(after)
    .map(([table, a]) => {
      const b = before[table] ?? { inserted: 0, updated: 0, hot: 0, deleted: 0 }
      return {
        table,
        inserted: (a.inserted - b.inserted) / purchases,
        updated: (a.updated - b.updated) / purchases,
        // Heap-only updates: no index entry written (the row's new version fit on its page).
        hot: (a.hot - b.hot) / purchases,
        deleted: (a.deleted - b.deleted) / purchases,
      }
    })
    .filter((r) => r.inserted || r.updated || r.deleted)
    .sort((x, y) => y.inserted + y.updated + y.deleted - (x.inserted + x.updated + x.deleted))
}

/**
 * Indexes of the tables a run wrote that no query of the run used (idx_scan = 0): each costs
 * every insert an index write for nothing, as far as this workload goes.
 */
export async function unusedIndexes(databaseUrl: string, tables: string[]) {
  const client = new pg.Client({ connectionString: databaseUrl })
  await client.connect()
  try {
    const { rows } = await client.query<{ t: string; i: string }>(
      `SELECT relname AS t, indexrelname AS i FROM pg_stat_user_indexes
       WHERE idx_scan = 0 AND relname = ANY($1) ORDER BY relname, indexrelname`,
      [tables],
    )
    return rows.map((r) => `${r.t}.${r.i}`)
  } finally {
    await client.end()
  }
}
