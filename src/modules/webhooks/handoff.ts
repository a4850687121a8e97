// Deliveries born claimed (issue 13). When the process that writes an event also runs a delivery
// worker with room, the event's deliveries are written already leased to that worker, and the
// statement's `RETURNING pg_notify(<the worker's channel>, <the delivery>)` hands each one over
// at commit: the worker sends it at once, with no claim statement and no claim's row version.
// Without a worker here (`start:api`), with its room full or its endpoint's window full, a
// delivery is written unclaimed as before and a worker's poll claims it. A process that dies
// holding born deliveries holds them as it would claimed ones: until their lease runs out.

/** How a delivery written now is born: leased to this process's worker. */
export interface Birth {
  /** The worker's own NOTIFY channel. */
  channel: string
  /** The lease (and `attempts = 1`, the claim's fencing token). */
  until: Date
  /** Endpoints whose window in this worker is full: their deliveries are written unclaimed. */
  fullEndpoints: string[]
}

/** Decides births for the worker of this process; null when it has no room now. */
export type BirthPlanner = (now: Date) => Birth | null

export interface DeliveryHandoff {
  /** How a delivery written now is born; null: unclaimed, for any worker's poll. */
  birth(now: Date): Birth | null
  /** The worker of this process takes the hand-offs; returns its detach. */
  attach(planner: BirthPlanner): () => void
}

/** One per process (its deps), shared by the code that writes events and the worker. */
export function createDeliveryHandoff(): DeliveryHandoff {
  let planner: BirthPlanner | null = null
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
