// Outbox rows born claimed (issue 13): when the process writing a row also runs the worker that
// sends it, and that worker has room, the row is written already leased to it and handed over
// once its transaction has committed (kit/after-commit.ts), so the worker sends it with no claim
// statement and no claim's row version. Otherwise the row is written unclaimed and a worker's
// poll claims it. A process that dies holding born rows holds them as it would claimed ones:
// until their lease runs out.

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
