// Webhook deliveries born claimed (kit/handoff.ts): an event's deliveries are written leased to
// this process's delivery worker, and the statement that wrote them hands each one whole to it
// once its transaction has committed (kit/after-commit.ts). Without a worker here
// (`start:api`), with its room full or its endpoint's window full, a delivery is written
// unclaimed as before and a worker's poll claims it.
import { type BirthPlanner, createHandoff, type Handoff } from '../../kit/handoff.ts'
import type { BornDelivery } from './repo.ts'

/** How a delivery written now is born: leased to this process's worker. */
export interface Birth {
  /** The lease (and `attempts = 1`, the claim's fencing token). */
  until: Date
  /** Endpoints whose window in this worker is full: their deliveries are written unclaimed. */
  fullEndpoints: string[]
  /** Gives the worker the deliveries written born, once their transaction has committed. */
  take(deliveries: BornDelivery[]): void
}

export type DeliveryBirthPlanner = BirthPlanner<Birth>
export type DeliveryHandoff = Handoff<Birth>

/** One per process (its deps), shared by the code that writes events and the worker. */
export const createDeliveryHandoff = (): DeliveryHandoff => createHandoff<Birth>()
