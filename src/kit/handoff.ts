// Outbox rows born claimed (issue 13): when the process writing a row also runs the worker that
// sends it, and that worker has room, the row is written already leased to it and handed over
// at commit (the insert's `RETURNING pg_notify(<the worker's channel>, …)`), so the worker sends
// it with no claim statement and no claim's row version. Otherwise the row is written unclaimed
// and a worker's poll claims it. A process that dies holding born rows holds them as it would
// claimed ones: until their lease runs out.
import type { Database } from './db.ts'

/** Decides how a row written now is born; null: unclaimed, for any worker's poll. */
export type BirthPlanner<B> = (now: Date) => B | null

export interface Handoff<B> {
  /** How a row written now is born: leased to this process's worker, or null (unclaimed). */
  birth(now: Date): B | null
  /** The worker of this process takes the hand-offs; returns its detach. */
  attach(planner: BirthPlanner<B>): () => void
}

/** One per process and kind of row (its deps), shared by the writing code and the worker. */
export function createHandoff<B>(): Handoff<B> {
  let planner: BirthPlanner<B> | null = null
  return {
    birth: (now) => planner?.(now) ?? null,
    attach(next) {
      planner = next
      return () => {
        if (planner === next) planner = null
      }
    },
  }
}

/** A worker's own channel for its born rows, heard once its planner is attached. */
export interface BirthChannel {
  /** Resolves once every announcement committed before the call has been taken. */
  sync(): Promise<void>
  /** No births from now on (rows written after are unclaimed). */
  detach(): void
  /** Detaches, then stops listening. */
  close(): Promise<void>
}

/**
 * Listens on `channel` and only then attaches `plan` to `handoff`, so a row is born only when
 * its announcement can be heard. If the connection is lost, births stop for the rest of the
 * process's life: every row is written unclaimed then, as without births. Rejects when it
 * cannot listen (births never begin).
 */
export async function listenForBirths<B>(
  database: Pick<Database, 'listen'>,
  handoff: Handoff<B>,
  opts: { channel: string; take: (payload: string) => void; plan: BirthPlanner<B> },
): Promise<BirthChannel> {
  let detach: (() => void) | null = null
  let lost = false
  const listener = await database.listen(opts.channel, opts.take, () => {
    lost = true
    detach?.()
  })
  if (!lost) detach = handoff.attach(opts.plan)
  return {
    sync: () => listener.sync(),
    detach: () => detach?.(),
    async close() {
      detach?.()
      await listener.close()
    },
  }
}
