// An order's shares, decided at checkout: who earns what of it (affiliate commission,
// co-producer splits), recorded pending with the order and canceled if it is never paid.
import type { Clock } from '../../kit/clock.ts'
import type { Executor, Tx } from '../../kit/db.ts'
import type { DB } from '../../kit/db-schema.ts'
import { uuidv7 } from '../../kit/ids.ts'
import { splitSale } from '../../kit/money.ts'
import { type Part, writeParts } from '../../kit/statement.ts'
import { referralById, referralFor } from '../affiliates/service.ts'
import { splitsOf } from '../coproducers/service.ts'
import { ledgerRepo as repo } from './repo.ts'

type Ctx = { clock: Clock }
type Order = Pick<DB['orders'], 'id' | 'account_id' | 'product_id' | 'amount_cents'>

/** An order's snapshot of who shares in it, computed at checkout. */
export interface SharePlan {
  commission: { affiliateId: string; userId: string; bps: number; cents: number } | null
  splits: { coproducerId: string; userId: string; bps: number; cents: number }[]
}

/**
 * Who shares in a new order: the affiliate of the checkout's code (not on their own purchase)
 * and every co-producer of the product, at today's percentages (SPEC §8 rounding).
 */
export async function planShares(
  db: Executor,
  input: {
    productId: string
    amountCents: number
    affiliateCode?: string | undefined
    /** Instead of a code: the affiliate of the order a renewal continues. */
    affiliateId?: string | null
    /** Null for a buyer who has no user yet (who cannot be the affiliate). */
    buyerId: string | null
    /** The product's co-producer splits when the caller read them already (else read here). */
    splits?: { coproducerId: string; userId: string; bps: number }[]
  },
): Promise<SharePlan> {
  const referral = input.affiliateId
    ? await referralById(db, input.affiliateId)
    : await referralFor(db, input.productId, input.affiliateCode)
  const affiliate = referral && referral.userId !== input.buyerId ? referral : null
  const splits = input.splits ?? (await splitsOf(db, input.productId))
  const parts = splitSale(
    input.amountCents,
    affiliate?.bps ?? null,
    splits.map((s) => s.bps),
  )
  return {
    commission: affiliate && { ...affiliate, cents: parts.commission },
    splits: splits.map((split, i) => ({ ...split, cents: parts.splits[i]! })),
  }
}

/** The order's own snapshot of its commission (shown by the order API). */
export const commissionFields = (plan: SharePlan) => ({
  affiliate_id: plan.commission?.affiliateId ?? null,
  affiliate_commission_bps: plan.commission?.bps ?? null,
  affiliate_commission_cents: plan.commission?.cents ?? null,
})

/** Records the order's shares as pending (an affiliate's pending_count counts these rows). */
export async function recordShares(tx: Tx, ctx: Ctx, order: Order, plan: SharePlan) {
  await writeParts(tx, shareParts(tx, ctx, order, plan))
}

/** recordShares as parts of a statement that may write the order itself (kit/statement.ts). */
export function shareParts(db: Executor, ctx: Ctx, order: Order, plan: SharePlan): Part[] {
  const now = ctx.clock.now()
  const base = {
    order_id: order.id,
    account_id: order.account_id,
    product_id: order.product_id,
    status: 'pending' as const,
    created_at: now,
    updated_at: now,
  }
  const { commission } = plan
  const rows = [
    ...(commission
      ? [
          {
            ...base,
            id: uuidv7(now.getTime()),
            kind: 'commission' as const,
            user_id: commission.userId,
            affiliate_id: commission.affiliateId,
            bps: commission.bps,
            amount_cents: commission.cents,
          },
        ]
      : []),
    ...plan.splits.map((split) => ({
      ...base,
      id: uuidv7(now.getTime()),
      kind: 'split' as const,
      user_id: split.userId,
      coproducer_id: split.coproducerId,
      bps: split.bps,
      amount_cents: split.cents,
    })),
  ]
  return rows.length ? [repo.insertSharesPart(db, rows)] : []
}

/** The order will never be paid (expired, declined): its shares are canceled, counted nowhere. */
export async function cancelShares(tx: Tx, ctx: Ctx, order: Pick<Order, 'id'>) {
  await repo.moveShares(tx, order.id, 'pending', {
    status: 'canceled',
    updated_at: ctx.clock.now(),
  })
}
