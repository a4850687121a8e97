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

/** Terminates, through `admin`, the backend asleep in a statement once there is one. */
export async function terminateSleeper(admin: Db) {
  for (let terminated = 0; !terminated; ) {
    const { rows } = await sql<{ n: number }>`
      SELECT count(pg_terminate_backend(pid))::int AS n FROM pg_stat_activity
      WHERE wait_event = 'PgSleep' AND datname = current_database()`.execute(admin)
    terminated = rows[0]!.n
  }
}
