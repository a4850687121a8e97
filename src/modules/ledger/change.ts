// One money change = one ledger posting. The lock order is fixed for every flow of the
// platform: affiliate rows, then co-producer rows, then creator slot rows by (account, slot).
// A change locks its holders when it begins (the flow then reads their shares safely), gathers
// lines and counter deltas while the flow plans, and on commit writes the posting, its entries
// and the counters. Creator balances are striped (migration 0013): a change that checks no
// creator's available (a sale, a chargeback…) adds to one random slot of each account it
// touches and waits on nobody else's slot; one that checks (a creator's withdrawal, a refund
// reservation) locks every slot of its accounts, reads their sums and writes into slot 0.
import type { Clock } from '../../kit/clock.ts'
import type { Tx } from '../../kit/db.ts'
import type { LedgerBook, PostingKind } from '../../kit/db-schema.ts'
import { uuidv7 } from '../../kit/ids.ts'
import {
  type AffiliateCounters,
  BALANCE_SLOTS,
  type CoproducerCounters,
  type CreatorCounters,
  ledgerRepo as repo,
} from './repo.ts'

export type HolderBook = 'affiliate' | 'coproducer'

interface Line {
  book: LedgerBook
  holderId: string | null
  accountId: string
  amount: number
}

export interface PostingRef {
  kind: PostingKind
  accountId?: string | null
  orderId?: string | null
  refundId?: string | null
  withdrawalId?: string | null
}

function bump<T extends object>(map: Map<string, T>, key: string, zero: T, delta: Partial<T>) {
  const current = map.get(key) ?? { ...zero }
  for (const [field, value] of Object.entries(delta) as [keyof T, number][]) {
    ;(current[field] as number) += value
  }
  map.set(key, current)
}

/**
 * The creator slot each open transaction writes into: several changes in one transaction
 * reuse it, so they never take a second slot of an account out of (account, slot) order.
 * A transaction that must check a creator's available does so before any unchecked change.
 */
const slotOfTx = new WeakMap<Tx, number>()

const NO_CREATOR: CreatorCounters = { paid: 0, refunded: 0, withdrawn: 0 }
const NO_AFFILIATE: AffiliateCounters = { paid: 0, rejected: 0, withdrawn: 0 }
const NO_COPRODUCER: CoproducerCounters = { earned: 0, refunded: 0, withdrawn: 0 }

export class MoneyChange {
  private readonly lines: Line[] = []
  private readonly creators = new Map<string, CreatorCounters>()
  private readonly holders = {
    affiliate: new Map<string, AffiliateCounters>(),
    coproducer: new Map<string, CoproducerCounters>(),
  }

  private constructor(
    private readonly tx: Tx,
    private readonly locked: { affiliate: Set<string>; coproducer: Set<string> },
    /** Creator accounts whose every slot this change holds (it then writes into slot 0). */
    private readonly wholeCreators: Set<string>,
  ) {}

  /**
   * Locks the holders' balance rows (creating them) in the fixed order; `creator` accounts get
   * every slot locked, for a flow that reads their available before it plans.
   */
  static async begin(
    tx: Tx,
    holders: { affiliate?: string[]; coproducer?: string[]; creator?: string[] } = {},
  ) {
    const affiliate = [...new Set(holders.affiliate ?? [])]
    const coproducer = [...new Set(holders.coproducer ?? [])]
    const creator = [...new Set(holders.creator ?? [])]
    await repo.lockBalances(tx, 'affiliate_balances', affiliate)
    await repo.lockBalances(tx, 'coproducer_balances', coproducer)
    await repo.lockCreatorSlots(tx, creator)
    return new MoneyChange(
      tx,
      { affiliate: new Set(affiliate), coproducer: new Set(coproducer) },
      new Set(creator),
    )
  }

  /** A signed entry: positive grows the book (what the platform owes that holder). */
  line(book: LedgerBook, holderId: string | null, accountId: string, amount: number): this {
    if (!Number.isSafeInteger(amount)) throw new RangeError(`ledger amount ${amount}`)
    if (amount !== 0) this.lines.push({ book, holderId, accountId, amount })
    return this
  }

  creator(accountId: string, delta: Partial<CreatorCounters>): this {
    bump(this.creators, accountId, NO_CREATOR, delta)
    return this
  }

  affiliate(userId: string, delta: Partial<AffiliateCounters>): this {
    this.mustHold('affiliate', userId)
    bump(this.holders.affiliate, userId, NO_AFFILIATE, delta)
    return this
  }

  coproducer(userId: string, delta: Partial<CoproducerCounters>): this {
    this.mustHold('coproducer', userId)
    bump(this.holders.coproducer, userId, NO_COPRODUCER, delta)
    return this
  }

  /** A holder's withdrawn counter, whichever book it is. */
  holderWithdrawn(book: HolderBook, userId: string, amount: number): this {
    return book === 'affiliate'
      ? this.affiliate(userId, { withdrawn: amount })
      : this.coproducer(userId, { withdrawn: amount })
  }

  /**
   * With `check` (or creators locked whole at begin): locks every slot of the creator accounts
   * this change touches, runs `check` with their summed available before anything is written,
   * and writes into slot 0. Without: writes into one random slot of each, locking only that.
   * Then the posting, its entries and the counters.
   */
  async commit(
    ctx: { clock: Clock },
    ref: PostingRef,
    check?: (available: Map<string, number>) => void,
  ): Promise<string> {
    const tx = this.tx
    const entries = this.netLines()
    for (const e of entries) {
      if (e.book === 'affiliate' || e.book === 'coproducer') this.mustHold(e.book, e.holderId!)
    }
    const accounts = [
      ...this.creators.keys(),
      ...entries.filter((e) => e.holderId !== null).map((e) => e.accountId),
    ]
    const now = ctx.clock.now()
    const id = uuidv7(now.getTime())
    let slot = 0
    if (check) {
      check(await repo.lockCreatorSlots(tx, accounts))
    } else if (this.wholeCreators.size) {
      // Held since begin (a creator's withdrawal touches only its own account).
      if (accounts.some((a) => !this.wholeCreators.has(a))) {
        await repo.lockCreatorSlots(tx, accounts)
      }
    } else {
      // The id's last hex digit is random (uuidv7's rand_b): the slot of this posting.
      slot = slotOfTx.get(tx) ?? Number.parseInt(id.slice(-1), 16) % BALANCE_SLOTS
    }
    slotOfTx.set(tx, slot)
    // Creates or locks the slot rows first: the entries' trigger adds to them.
    const slotAccounts = [...new Set(accounts)]
    await repo.addCreatorSlots(
      tx,
      slot,
      slotAccounts.map((accountId) => ({
        accountId,
        counters: this.creators.get(accountId) ?? NO_CREATOR,
      })),
    )
    const posted = await repo.insertPostingWithEntries(
      tx,
      {
        id,
        kind: ref.kind,
        account_id: ref.accountId ?? null,
        order_id: ref.orderId ?? null,
        refund_id: ref.refundId ?? null,
        withdrawal_id: ref.withdrawalId ?? null,
        created_at: now,
      },
      entries.map((e) => ({
        book: e.book,
        holder_id: e.holderId,
        account_id: e.accountId,
        amount_cents: e.amount,
        slot,
        created_at: now,
      })),
    )
    if (!posted) throw new Error(`ledger: ${ref.kind} was already posted for this fact`)
    for (const [userId, d] of this.holders.affiliate) {
      await repo.addCounters(tx, 'affiliate_balances', userId, d)
    }
    for (const [userId, d] of this.holders.coproducer) {
      await repo.addCounters(tx, 'coproducer_balances', userId, d)
    }
    return id
  }

  /** Lines on the same book, holder and account add up into one entry; zeros vanish. */
  private netLines(): Line[] {
    const net = new Map<string, Line>()
    for (const l of this.lines) {
      const key = `${l.book}|${l.holderId}|${l.accountId}`
      const found = net.get(key)
      if (found) found.amount += l.amount
      else net.set(key, { ...l })
    }
    return [...net.values()].filter((l) => l.amount !== 0)
  }

  private mustHold(book: HolderBook, userId: string) {
    if (!this.locked[book].has(userId)) {
      throw new Error(`ledger: ${book} ${userId} changed without its balance row locked first`)
    }
  }
}
