// For tests of what callers do while waiting for a connection (kit/pg-coalescer.ts,
// kit/pg-shared-tx.ts): a pool whose one connection a transaction holds while they queue.
import { sql } from 'kysely'
import { type Db, withTx } from '../../src/kit/db.ts'

/** Starts `calls` while `db`'s pool's one connection is held, then lets it go. */
export async function whileHeld<T>(
  db: Db,
  calls: () => Promise<T>[],
): Promise<PromiseSettledResult<T>[]> {
  let release!: () => void
  const held = new Promise<void>((resolve) => {
    release = resolve
  })
  let started!: () => void
  const holding = new Promise<void>((resolve) => {
    started = resolve
  })
  const holder = withTx(db, async (tx) => {
    await sql`SELECT 1`.execute(tx)
    started()
    await held
  })
  await holding
  const settled = Promise.allSettled(calls())
  release()
  await holder
  return settled
}

/** Backends of this database asleep in a statement, seen through `admin`; `end`: terminated. */
async function sleepers(admin: Db, end: boolean): Promise<number> {
  const counted = end ? sql`count(pg_terminate_backend(pid))` : sql`count(*)`
  const { rows } = await sql<{ n: number }>`
    SELECT ${counted}::int AS n FROM pg_stat_activity
    WHERE wait_event = 'PgSleep' AND datname = current_database()`.execute(admin)
  return rows[0]!.n
}

/** A short pause between looks, so a wait does not hold a core the awaited work needs. */
const nextLook = () => new Promise((resolve) => setTimeout(resolve, 5))

/** Resolves once a backend of this database sleeps in a statement. */
export async function untilSleeping(admin: Db) {
  while (!(await sleepers(admin, false))) await nextLook()
}

/** Terminates the backend asleep in a statement once there is one. */
export async function terminateSleeper(admin: Db) {
  while (!(await sleepers(admin, true))) await nextLook()
}
