// The ledger side of a paid order: the sale posted when it is paid, reversed by a refund
// (reserved at request, then paid out or released) or by a chargeback. Each runs inside the
// caller's transaction, after the caller locked the order.
import type { Outbox } from '../../deps.ts'
import type { Tx } from '../../kit/db.ts'
import type { DB, LedgerBook } from '../../kit/db-schema.ts'
import { BadRequest } from '../../kit/errors.ts'
import { toBrl } from '../../kit/money.ts'
import type { Part } from '../../kit/statement.ts'
import { emitEvent } from '../webhooks/service.ts'
import { BOOK_OF, rebalance } from './allocation.ts'
import { MoneyChange } from './change.ts'
import { ledgerRepo as repo, type ShareRow } from './repo.ts'

type Ctx = Outbox
type Order = Pick<DB['orders'], 'id' | 'account_id' | 'product_id' | 'amount_cents'> & {
  interest_cents: number
}

export const REFUND_NOT_COVERED = 'Saldo insuficiente para reembolsar este pedido'

function holdersOf(shares: ShareRow[]) {
  return {
    affiliate: shares.filter((s) => s.kind === 'commission').map((s) => s.user_id),
    coproducer: shares.filter((s) => s.kind === 'split').map((s) => s.user_id),
  }
}

/**
 * The order's price: what the buyer paid less the installments' interest, which is the
 * platform's (it pays the gateway's anticipation). Shares and the creator's counters are of it.
 */
const priceOf = (order: Order) => order.amount_cents - order.interest_cents

/** What the creator keeps of the order: the price less every share. */
const creatorPart = (order: Order, shares: ShareRow[]) =>
  priceOf(order) - shares.reduce((sum, s) => sum + s.amount_cents, 0)

/**
 * The order's money to everyone who shares in it (sign +1), or back from them (−1), against
 * one platform book: the creator its part, each affiliate and co-producer their share, the
 * platform the installments' interest.
 */
function shareLines(
  change: MoneyChange,
  order: Order,
  shares: ShareRow[],
  sign: 1 | -1,
  against: LedgerBook,
) {
  const x = order.account_id
  change
    .line('creator', x, x, sign * creatorPart(order, shares))
    .line('platform_revenue', null, x, sign * order.interest_cents)
    .line(against, null, x, -sign * order.amount_cents)
  for (const share of shares) {
    change.line(BOOK_OF[share.kind], share.user_id, x, sign * share.amount_cents)
  }
}

/** The seed's counters of a reversal (sign +1) or of undoing one (−1). */
function reversalCounters(change: MoneyChange, order: Order, shares: ShareRow[], sign: 1 | -1) {
  change.creator(order.account_id, { refunded: sign * priceOf(order) })
  for (const share of shares) {
    const amount = sign * share.amount_cents
    if (share.kind === 'commission') {
      change.affiliate(share.user_id, { paid: -amount, rejected: amount })
    } else {
      change.coproducer(share.user_id, { refunded: amount })
    }
  }
}

/** Moves withdrawn money of these holders off rejected shares onto shares with room. */
async function rebalanceAll(tx: Tx, change: MoneyChange, shares: ShareRow[]) {
  for (const share of shares) {
    await rebalance(tx, change, { book: BOOK_OF[share.kind], userId: share.user_id })
  }
}

/**
 * The order became paid: the gateway holds its amount; each share is earned and the creator
 * keeps the rest. A holder's debt (money withdrawn from reversed shares) is absorbed first.
 * The affiliate hears `affiliate.commission_earned`.
 */
export async function postSale(
  tx: Tx,
  ctx: Ctx,
  order: Order,
  /** False when the caller knows the order has no pending share (no read then). */
  hasShares = true,
  /** The caller's writes that go in the posting's statement (kit/statement.ts). */
  alongside: Part[] = [],
  /** The caller runs nothing more in the transaction (ledger/change.ts commit). */
  { endsTransaction = false } = {},
): Promise<void> {
  const pending = hasShares ? await repo.sharesOfOrder(tx, order.id, 'pending') : []
  // One slot of each holder and of the creator: a launch's sales rarely wait on each other.
  const change = await MoneyChange.sale(tx, holdersOf(pending))
  const now = ctx.clock.now()
  // Shares are written only with their order, and the caller locked the order: with none
  // pending (no affiliate, no co-producer) there is nothing to move.
  const shares = pending.length
    ? await repo.moveShares(tx, order.id, 'pending', {
        status: 'paid',
        earned_at: now,
        updated_at: now,
      })
    : []
  shareLines(change, order, shares, 1, 'gateway')
  change.creator(order.account_id, { paid: priceOf(order) })
  for (const share of shares) {
    if (share.kind === 'commission') {
      change.affiliate(share.user_id, { paid: share.amount_cents })
    } else {
      change.coproducer(share.user_id, { earned: share.amount_cents })
    }
  }
  await rebalanceAll(tx, change, shares)
  const commission = shares.find((s) => s.kind === 'commission')
  await change.commit(
    ctx,
    { kind: 'sale', accountId: order.account_id, orderId: order.id },
    undefined,
    alongside,
    // The affiliate's event follows it.
    { endsTransaction: endsTransaction && !commission },
  )
  if (commission) {
    await emitEvent(tx, ctx, {
      accountId: order.account_id,
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

/**
 * Takes the paid order's money back from everyone, each their own share (shares become
 * rejected). Money a holder already withdrew from a share moves to their next earnings, or
 * stays as a debt that those absorb.
 */
async function reverseSale(tx: Tx, ctx: Ctx, order: Order, against: LedgerBook) {
  const shares = await repo.sharesOfOrder(tx, order.id, 'paid')
  const change = await MoneyChange.begin(tx, holdersOf(shares))
  await repo.moveShares(tx, order.id, 'paid', { status: 'rejected', updated_at: ctx.clock.now() })
  shareLines(change, order, shares, -1, against)
  reversalCounters(change, order, shares, 1)
  await rebalanceAll(tx, change, shares)
  return { change, creatorPart: creatorPart(order, shares) }
}

/**
 * A refund was requested: the whole amount is set aside for the buyer at once (SPEC §8 counts
 * pending refunds), so nobody can withdraw it meanwhile. The creator must cover its own part
 * now (400 `Saldo insuficiente para reembolsar este pedido`), checked under the row lock that
 * withdrawals take too, so a refund and a withdrawal never spend the same money.
 */
export async function reserveRefund(tx: Tx, ctx: Ctx, input: { order: Order; refundId: string }) {
  const { order } = input
  const { change, creatorPart: part } = await reverseSale(tx, ctx, order, 'refunds_payable')
  await change.commit(
    ctx,
    { kind: 'refund_reserved', accountId: order.account_id, refundId: input.refundId },
    (available) => {
      if (part > 0 && (available.get(order.account_id) ?? 0) < part) {
        throw new BadRequest(REFUND_NOT_COVERED)
      }
    },
  )
}

/** Money set aside for a refund (or a refund turned chargeback) leaves the platform. */
function payOut(change: MoneyChange, order: Order) {
  change
    .line('refunds_payable', null, order.account_id, -order.amount_cents)
    .line('gateway', null, order.account_id, order.amount_cents)
}

/** The gateway returned the money to the buyer. */
export async function payRefund(tx: Tx, ctx: Ctx, input: { order: Order; refundId: string }) {
  const change = await MoneyChange.begin(tx)
  payOut(change, input.order)
  await change.commit(ctx, {
    kind: 'refund_paid',
    accountId: input.order.account_id,
    refundId: input.refundId,
  })
}

/**
 * The gateway's cash left a second time for one refund: the gateway carried the refund out
 * after a chargeback (or an admin) had failed it, or the buyer's bank charged back an order
 * already refunded. The creators bore the refund once; this money is the platform's, owed back
 * to it (`platform_receivable`: recovered by contesting the chargeback with the refund's
 * proof), so no holder's balance moves again.
 */
export async function postRefundPaidTwice(
  tx: Tx,
  ctx: Ctx,
  input: { order: Order; refundId: string; kind: 'refund_completed_late' | 'refund_charged_back' },
) {
  const { order } = input
  const change = await MoneyChange.begin(tx)
  change
    .line('platform_receivable', null, order.account_id, -order.amount_cents)
    .line('gateway', null, order.account_id, order.amount_cents)
  await change.commit(ctx, {
    kind: input.kind,
    accountId: order.account_id,
    refundId: input.refundId,
  })
}

/** The refund failed: every share goes back to who had it, as before the request. */
export async function releaseRefund(tx: Tx, ctx: Ctx, input: { order: Order; refundId: string }) {
  const { order } = input
  const rejected = await repo.sharesOfOrder(tx, order.id, 'rejected')
  const change = await MoneyChange.begin(tx, holdersOf(rejected))
  const shares = await repo.moveShares(tx, order.id, 'rejected', {
    status: 'paid',
    updated_at: ctx.clock.now(),
  })
  shareLines(change, order, shares, 1, 'refunds_payable')
  reversalCounters(change, order, shares, -1)
  await rebalanceAll(tx, change, shares)
  await change.commit(ctx, {
    kind: 'refund_released',
    accountId: order.account_id,
    refundId: input.refundId,
  })
}

/**
 * The buyer's bank took the money back. Reversed like a refund (and counted in the creator's
 * refunded_total) but with no balance check: a chargeback cannot be refused, so balances may
 * go negative and later sales fill them. A refund already reserved becomes the chargeback.
 */
export async function postChargeback(
  tx: Tx,
  ctx: Ctx,
  input: { order: Order; reservedRefundId: string | null },
) {
  const { order } = input
  const ref = { kind: 'chargeback' as const, accountId: order.account_id, orderId: order.id }
  if (input.reservedRefundId) {
    const change = await MoneyChange.begin(tx)
    payOut(change, order)
    await change.commit(ctx, ref)
    return
  }
  const { change } = await reverseSale(tx, ctx, order, 'gateway')
  await change.commit(ctx, ref)
}
