// The ledger side of an order's life: shares snapshotted at checkout, the sale posted when it
// is paid, reversed by a refund (reserved at request, paid out or released later) or a
// chargeback. Each runs inside the caller's transaction, after the caller locked the order.
import type { Clock } from '../../kit/clock.ts'
import type { Executor, Tx } from '../../kit/db.ts'
import type { DB } from '../../kit/db-schema.ts'
import { uuidv7 } from '../../kit/ids.ts'
import { splitSale, toBrl } from '../../kit/money.ts'
import { referralFor } from '../affiliates/service.ts'
import { splitsOf } from '../coproducers/service.ts'
import { emitEvent } from '../webhooks/service.ts'
import { BOOK_OF, rebalance } from './allocation.ts'
import { MoneyChange } from './change.ts'
import { ledgerRepo as repo, type ShareRow } from './repo.ts'

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
  input: { productId: string; amountCents: number; affiliateCode?: string; buyerId: string },
): Promise<SharePlan> {
  const referral = await referralFor(db, input.productId, input.affiliateCode)
  const affiliate = referral && referral.userId !== input.buyerId ? referral : null
  const splits = await splitsOf(db, input.productId)
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

function holdersOf(shares: ShareRow[]) {
  return {
    affiliate: shares.filter((s) => s.kind === 'commission').map((s) => s.user_id),
    coproducer: shares.filter((s) => s.kind === 'split').map((s) => s.user_id),
  }
}

/** What the creator keeps of the order: the amount less every share. */
const creatorPart = (order: Order, shares: ShareRow[]) =>
  order.amount_cents - shares.reduce((sum, s) => sum + s.amount_cents, 0)

/** Records the order's shares as pending; an affiliate's pending_count counts the order. */
export async function recordShares(tx: Tx, ctx: Ctx, order: Order, plan: SharePlan) {
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
  if (commission) await countPending(tx, commission.userId, 1)
  await repo.insertShares(tx, [
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
  ])
}

/** pending_count is a counter, not money: no posting, but the same row lock. */
async function countPending(tx: Tx, userId: string, delta: number) {
  await repo.lockBalances(tx, 'affiliate_balances', [userId])
  await repo.addCounters(tx, 'affiliate_balances', userId, { pending: delta })
}

/** The order will never be paid (expired, declined): its shares are canceled, counted nowhere. */
export async function cancelShares(tx: Tx, ctx: Ctx, order: Pick<Order, 'id'>) {
  const pending = await repo.sharesOfOrder(tx, order.id, 'pending')
  const commission = pending.find((s) => s.kind === 'commission')
  if (commission) await countPending(tx, commission.user_id, -1)
  await repo.moveShares(tx, order.id, 'pending', {
    status: 'canceled',
    updated_at: ctx.clock.now(),
  })
}

/**
 * The order became paid: the gateway holds its amount; each share is earned and the creator
 * keeps the rest. A holder's debt (money withdrawn from reversed shares) is absorbed first.
 * The affiliate hears `affiliate.commission_earned`.
 */
export async function postSale(tx: Tx, ctx: Ctx, order: Order): Promise<void> {
  const pending = await repo.sharesOfOrder(tx, order.id, 'pending')
  const change = await MoneyChange.begin(tx, holdersOf(pending))
  const now = ctx.clock.now()
  const shares = await repo.moveShares(tx, order.id, 'pending', {
    status: 'paid',
    earned_at: now,
    updated_at: now,
  })
  const x = order.account_id
  change
    .line('gateway', null, x, -order.amount_cents)
    .line('creator', x, x, creatorPart(order, shares))
    .creator(x, { paid: order.amount_cents })
  for (const share of shares) {
    change.line(BOOK_OF[share.kind], share.user_id, x, share.amount_cents)
    if (share.kind === 'commission') {
      change.affiliate(share.user_id, { paid: share.amount_cents, pending: -1 })
    } else {
      change.coproducer(share.user_id, { earned: share.amount_cents })
    }
  }
  for (const share of shares) {
    await rebalance(tx, change, { book: BOOK_OF[share.kind], userId: share.user_id })
  }
  await change.commit(ctx, { kind: 'sale', accountId: x, orderId: order.id })
  const commission = shares.find((s) => s.kind === 'commission')
  if (commission) {
    await emitEvent(tx, ctx, {
      accountId: x,
      type: 'affiliate.commission_earned',
      data: {
        affiliate_id: commission.affiliate_id,
        order_id: order.id,
        product_id: order.product_id,
        commission_amount: toBrl(commission.amount_cents),
        affiliate_user_id: commission.user_id,
        commission_percent: commission.bps / 100,
      },
    })
  }
}
