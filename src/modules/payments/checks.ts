// Gateway answers still to look up, by our reference. A flow that asks the gateway for
// something (a charge, a refund, a transfer) and might never learn the answer opens a check in
// the same transaction that records its intent; whoever records the answer settles it. Checks
// left open past their time are the reconciliation worker's (reconcile.ts).
import type { Clock } from '../../kit/clock.ts'
import type { Executor } from '../../kit/db.ts'
import type { GatewayCheckKind } from '../../kit/db-schema.ts'
import type { Part } from '../../kit/statement.ts'
import { paymentsRepo as repo } from './repo.ts'

type Ctx = { clock: Clock }

/**
 * How long a request may still be talking to the gateway about its own reference before the
 * worker looks it up: well beyond any gateway call's time-out, so an answer on its way is
 * recorded by the request rather than raced by the worker.
 */
export const CHECK_GRACE_MS = 120_000

/** What a look at the gateway concluded: done (why), or look again at a later time. */
export type CheckVerdict = { settled: string } | { again: Date; note: string }

export function openCheck(
  db: Executor,
  ctx: Ctx,
  input: { id: string; kind: GatewayCheckKind; afterMs?: number },
) {
  return repo.openCheck(db, checkRow(ctx, input))
}

/** openCheck as a part of a statement the caller writes with others (kit/statement.ts). */
export function openCheckPart(
  ctx: Ctx,
  input: { id: string; kind: GatewayCheckKind; afterMs?: number; at?: Date },
): Part {
  return repo.openCheckPart(checkRow(ctx, input))
}

/** Due `at`, or `afterMs` from now (by default the grace a request has to record its answer). */
function checkRow(
  ctx: Ctx,
  input: { id: string; kind: GatewayCheckKind; afterMs?: number; at?: Date },
) {
  const now = ctx.clock.now()
  const at = input.at ?? new Date(now.getTime() + (input.afterMs ?? CHECK_GRACE_MS))
  return { id: input.id, kind: input.kind, at, now }
}

/** The answer is ours now (recorded, or confirmed to hold nothing): nothing left to look up. */
export const settleCheck = (db: Executor, ctx: Ctx, id: string, note: string) =>
  repo.settleCheck(db, id, note, ctx.clock.now())

/** settleCheck as a part of a statement the caller writes with others (kit/statement.ts). */
export const settleCheckPart = (ctx: Ctx, id: string, note: string): Part =>
  repo.settleCheckPart(id, note, ctx.clock.now())
