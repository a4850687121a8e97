// The ledger's contract with withdrawals (payouts module): balances change only through these
// four functions. See ../../../docs/ARCHITECTURE.md "Money" for the rules they keep.
import type { Clock } from '../../kit/clock.ts'
import type { Tx } from '../../kit/db.ts'
import { BadRequest, Conflict, NotFound } from '../../kit/errors.ts'
import { allocate, rebalance } from './allocation.ts'
import { type HolderBook, MoneyChange } from './change.ts'
import { type BalanceTable, ledgerRepo as repo } from './repo.ts'

export type Holder =
  | { kind: 'creator'; accountId: string } // an account (tenant): the seller
  | { kind: 'coproducer'; userId: string } // a user, over all of their splits
  | { kind: 'affiliate'; userId: string } // a user, over all of their commissions

type Ctx = { clock: Clock }

export const INSUFFICIENT_BALANCE = 'Saldo insuficiente'

const TABLE: Record<Exclude<Holder['kind'], 'creator'>, BalanceTable> = {
  affiliate: 'affiliate_balances',
  coproducer: 'coproducer_balances',
}

const holderId = (holder: Holder) => (holder.kind === 'creator' ? holder.accountId : holder.userId)

/** Locks the holder's balance (every slot) before anything else of the flow. */
function beginFor(tx: Tx, kind: Holder['kind'], id: string) {
  return MoneyChange.begin(tx, { [kind]: [id] })
}

/**
 * Locks the holder's balance FOR UPDATE (every slot row, in slot order: the fixed lock order)
 * and returns `available` in centavos, the sum of its slots.
 */
export async function lockAvailable(tx: Tx, holder: Holder): Promise<number> {
  const id = holderId(holder)
  const available =
    holder.kind === 'creator'
      ? await repo.lockCreatorSlots(tx, [id])
      : await repo.lockHolders(tx, TABLE[holder.kind], [id])
  return available.get(id) ?? 0
}

/**
 * A withdrawal was requested (pending): its amount leaves `available` now. For co-producers and
 * affiliates it is allocated to the creator accounts whose sales earned it, oldest earnings
 * first (it becomes part of those accounts' withdrawn_total and leaves their *_owed).
 * Call after lockAvailable in the same transaction; throws `Saldo insuficiente` (400) if it
 * would make available negative.
 */
export async function holdWithdrawal(
  tx: Tx,
  ctx: Ctx,
  input: { holder: Holder; withdrawalId: string; amountCents: number },
): Promise<void> {
  const { holder, withdrawalId, amountCents: amount } = input
  if (!Number.isSafeInteger(amount) || amount <= 0) throw new RangeError('amount in centavos')
  const id = holderId(holder)
  const change = await beginFor(tx, holder.kind, id)
  if (amount > (await lockAvailable(tx, holder))) throw new BadRequest(INSUFFICIENT_BALANCE)
  const now = ctx.clock.now()
  const created = await repo.insertWithdrawal(tx, {
    withdrawal_id: withdrawalId,
    holder_kind: holder.kind,
    holder_id: id,
    amount_cents: amount,
    status: 'held',
    created_at: now,
    updated_at: now,
  })
  if (!created) throw new Conflict('Saque já registrado')
  if (holder.kind === 'creator') {
    change
      .line('creator', id, id, -amount)
      .line('payouts_payable', null, id, amount)
      .creator(id, { withdrawn: amount })
  } else {
    for (const piece of await allocate(
      tx,
      { book: holder.kind, userId: id },
      withdrawalId,
      amount,
    )) {
      change
        .line(holder.kind, id, piece.accountId, -piece.amount)
        .line('payouts_payable', null, piece.accountId, piece.amount)
        .creator(piece.accountId, { withdrawn: piece.amount })
    }
    change.holderWithdrawn(holder.kind, id, amount)
  }
  await change.commit(ctx, {
    kind: 'withdrawal_held',
    withdrawalId,
    accountId: holder.kind === 'creator' ? id : null,
  })
}

/** A pending or approved withdrawal was rejected: its amount (and allocations) go back. */
export async function releaseWithdrawal(
  tx: Tx,
  ctx: Ctx,
  input: { withdrawalId: string },
): Promise<void> {
  const held = await repo.findWithdrawal(tx, input.withdrawalId)
  if (!held) throw new NotFound('Saque não encontrado')
  const change = await beginFor(tx, held.holder_kind, held.holder_id)
  const moved = await repo.moveWithdrawal(tx, held.withdrawal_id, 'released', ctx.clock.now())
  if (!moved) {
    const current = await repo.findWithdrawal(tx, held.withdrawal_id)
    if (current?.status === 'released') return
    throw new Conflict('Saque já pago não pode ser devolvido')
  }
  const id = held.holder_id
  const amount = held.amount_cents
  if (held.holder_kind === 'creator') {
    change
      .line('creator', id, id, amount)
      .line('payouts_payable', null, id, -amount)
      .creator(id, { withdrawn: -amount })
  } else {
    const book: HolderBook = held.holder_kind
    for (const piece of await repo.allocationsOf(tx, held.withdrawal_id)) {
      await repo.addAllocated(tx, piece.share_id, -piece.amount_cents)
      change
        .line(book, id, piece.account_id, piece.amount_cents)
        .line('payouts_payable', null, piece.account_id, -piece.amount_cents)
        .creator(piece.account_id, { withdrawn: -piece.amount_cents })
    }
    await repo.deleteAllocationsOf(tx, held.withdrawal_id)
    change.holderWithdrawn(book, id, -amount)
    await rebalance(tx, change, { book, userId: id })
  }
  await change.commit(ctx, {
    kind: 'withdrawal_released',
    withdrawalId: held.withdrawal_id,
    accountId: held.holder_kind === 'creator' ? id : null,
  })
}

/** The PIX transfer was made: the held amount leaves the platform for good. */
export async function settleWithdrawal(
  tx: Tx,
  ctx: Ctx,
  input: { withdrawalId: string },
): Promise<void> {
  const moved = await repo.moveWithdrawal(tx, input.withdrawalId, 'settled', ctx.clock.now())
  if (!moved) {
    const current = await repo.findWithdrawal(tx, input.withdrawalId)
    if (current?.status === 'settled') return
    if (!current) throw new NotFound('Saque não encontrado')
    throw new Conflict('Saque devolvido não pode ser pago')
  }
  const change = await MoneyChange.begin(tx)
  const pieces =
    moved.holder_kind === 'creator'
      ? [{ account_id: moved.holder_id, amount_cents: moved.amount_cents }]
      : await repo.allocationsOf(tx, moved.withdrawal_id)
  for (const piece of pieces) {
    change
      .line('payouts_payable', null, piece.account_id, -piece.amount_cents)
      .line('gateway', null, piece.account_id, piece.amount_cents)
  }
  await change.commit(ctx, {
    kind: 'withdrawal_settled',
    withdrawalId: moved.withdrawal_id,
    accountId: moved.holder_kind === 'creator' ? moved.holder_id : null,
  })
}
