// Where a co-producer's or affiliate's withdrawn money comes from (SPEC §8): each withdrawal is
// charged to the shares that earned it, oldest earnings first, and so to those shares' creator
// accounts (their withdrawn_total, out of their *_owed). When a share is reversed (refund,
// chargeback) the money withdrawn from it moves to the holder's next shares with room; what
// cannot move yet is a debt that the holder's next earnings absorb. Callers hold the holder's
// balance rows whole, which guards all of that holder's shares and pieces; a sale holds one
// slot only and takes the holder's share lock before it moves a debt (MoneyChange.lockShares).
import type { Tx } from '../../kit/db.ts'
import type { ShareKind } from '../../kit/db-schema.ts'
import type { HolderBook, MoneyChange } from './change.ts'
import { ledgerRepo as repo, type ShareRow } from './repo.ts'

export const SHARE_KIND: Record<HolderBook, ShareKind> = {
  affiliate: 'commission',
  coproducer: 'split',
}
export const BOOK_OF: Record<ShareKind, HolderBook> = {
  commission: 'affiliate',
  split: 'coproducer',
}

export interface Piece {
  accountId: string
  amount: number
}

const BATCH = 100

/** Shares with room left, oldest first, fetched a batch at a time. */
function roomCursor(tx: Tx, kind: ShareKind, userId: string) {
  let batch: ShareRow[] = []
  return async (): Promise<ShareRow | null> => {
    batch = batch.filter((s) => s.allocated_cents < s.amount_cents)
    if (!batch.length) batch = await repo.freeShares(tx, kind, userId, BATCH)
    return batch[0] ?? null
  }
}

/** Charges `amount` of a new withdrawal to the holder's free earnings, oldest first. */
export async function allocate(
  tx: Tx,
  holder: { book: HolderBook; userId: string },
  withdrawalId: string,
  amount: number,
): Promise<Piece[]> {
  const next = roomCursor(tx, SHARE_KIND[holder.book], holder.userId)
  const pieces: Piece[] = []
  let left = amount
  while (left > 0) {
    const share = await next()
    if (!share) throw new Error('ledger: available balance without earnings to allocate')
    const take = Math.min(left, share.amount_cents - share.allocated_cents)
    await repo.addAllocated(tx, share.id, take)
    await repo.addAllocation(
      tx,
      { withdrawalId, shareId: share.id, accountId: share.account_id },
      take,
    )
    share.allocated_cents += take
    pieces.push({ accountId: share.account_id, amount: take })
    left -= take
  }
  return pieces
}

/**
 * Moves withdrawn money off the holder's rejected shares onto shares with room, oldest first,
 * recording the move on `change`: the holder's lines shift from one account to the other and
 * so does the withdrawn counter of those accounts. The holder's own balance does not change.
 */
export async function rebalance(
  tx: Tx,
  change: MoneyChange,
  holder: { book: HolderBook; userId: string },
): Promise<void> {
  const kind = SHARE_KIND[holder.book]
  let debts = await repo.debtPieces(tx, kind, holder.userId)
  if (!debts.length) return
  // Debts are rare: only then does a sale serialize with the holder's other debt-moving sales.
  if (await change.lockShares(holder.book, holder.userId)) {
    debts = await repo.debtPieces(tx, kind, holder.userId)
    if (!debts.length) return
  }
  const next = roomCursor(tx, kind, holder.userId)
  for (const piece of debts) {
    let left = piece.amount_cents
    while (left > 0) {
      const target = await next()
      if (!target) return
      const move = Math.min(left, target.amount_cents - target.allocated_cents)
      await repo.takeAllocation(
        tx,
        { withdrawalId: piece.withdrawal_id, shareId: piece.share_id },
        move,
      )
      await repo.addAllocated(tx, piece.share_id, -move)
      await repo.addAllocation(
        tx,
        { withdrawalId: piece.withdrawal_id, shareId: target.id, accountId: target.account_id },
        move,
      )
      await repo.addAllocated(tx, target.id, move)
      target.allocated_cents += move
      change
        .line(holder.book, holder.userId, piece.account_id, move)
        .line(holder.book, holder.userId, target.account_id, -move)
        .creator(piece.account_id, { withdrawn: -move })
        .creator(target.account_id, { withdrawn: move })
      left -= move
    }
  }
}
