// One money change = one ledger posting. The lock order is fixed for every flow of the
// platform: affiliate slot rows, then co-producer slot rows, each by (id, slot); then, for a
// sale only, the share lock (advisory) of each of its holders in debt, in that same order
// (allocation.ts rebalance); then creator slot rows by (account, slot). A change locks its
// holders when it begins (the flow then reads their shares safely), gathers lines and counter
// deltas while the flow plans, and on commit writes the posting, its entries and the counters.
//
// Balances are striped over 16 slot rows (migrations 0013 creators, 0021 affiliates and
// co-producers), and one change writes one slot number everywhere (an entry carries one).
// - A sale (MoneyChange.sale) adds to one random slot of each holder and creator account and
//   locks only that: concurrent sales through one affiliate link rarely meet.
// - Every other change of a holder (withdrawals, refunds, chargebacks) locks all 16 of its
//   slots in order and writes slot 0: those read its available or move its shares between
//   withdrawals, so they exclude every sale of that holder (whose rows all exist, 0021).
// - A creator is locked whole only by a change that checks its available (its withdrawal, a
//   refund reservation); it then writes slot 0. Other changes add to one slot of it: a random
//   one, or slot 0 when the change holds its holders whole.
import { randomInt } from 'node:crypto'
import type { Clock } from '../../kit/clock.ts'
import { type Tx, transactionOf } from '../../kit/db.ts'
import type { LedgerBook, PostingKind } from '../../kit/db-schema.ts'
import { uuidv7 } from '../../kit/ids.ts'
import type { Part } from '../../kit/statement.ts'
import {
  type AffiliateCounters,
  BALANCE_SLOTS,
  type BalanceTable,
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
 * The slot each open transaction writes into: several changes in one transaction reuse it, so
 * they never take a second slot of a holder or account out of (id, slot) order. A
 * transaction that locks a holder or creator whole does so before any sale. Keyed by the
 * database transaction (kit/db.ts transactionOf): callers sharing one share its slot.
 */
const slotByTransaction = new WeakMap<object, number>()
const slotKeptBy = (tx: Tx) => slotByTransaction.get(transactionOf(tx))
const keepSlot = (tx: Tx, slot: number) => slotByTransaction.set(transactionOf(tx), slot)

const NO_CREATOR: CreatorCounters = { paid: 0, refunded: 0, withdrawn: 0 }
const NO_AFFILIATE: AffiliateCounters = { paid: 0, rejected: 0, withdrawn: 0 }
const NO_COPRODUCER: CoproducerCounters = { earned: 0, refunded: 0, withdrawn: 0 }
const TABLE_OF: Record<HolderBook, BalanceTable> = {
  affiliate: 'affiliate_balances',
  coproducer: 'coproducer_balances',
}

export class MoneyChange {
  private readonly lines: Line[] = []
  private readonly creators = new Map<string, CreatorCounters>()
  private readonly holders = {
    affiliate: new Map<string, AffiliateCounters>(),
    coproducer: new Map<string, CoproducerCounters>(),
  }
  private readonly shareLocks = new Set<string>()

  private constructor(
    private readonly tx: Tx,
    private readonly locked: { affiliate: Set<string>; coproducer: Set<string> },
    /** Creator accounts whose every slot this change holds (it then writes into slot 0). */
    private readonly wholeCreators: Set<string>,
    /** A sale's slot, the one row of each holder it locked; null: its holders are held whole. */
    private readonly saleSlot: number | null,
  ) {}

  /**
   * Locks every slot of the holders (creating their rows) in the fixed order; `creator`
   * accounts get every slot locked too, for a flow that reads their available before it plans.
   */
  static async begin(
    tx: Tx,
    holders: { affiliate?: string[]; coproducer?: string[]; creator?: string[] } = {},
  ) {
    const affiliate = [...new Set(holders.affiliate ?? [])]
    const coproducer = [...new Set(holders.coproducer ?? [])]
    const creator = [...new Set(holders.creator ?? [])]
    await repo.lockHolders(tx, 'affiliate_balances', affiliate)
    await repo.lockHolders(tx, 'coproducer_balances', coproducer)
    await repo.lockCreatorSlots(tx, creator)
    return new MoneyChange(
      tx,
      { affiliate: new Set(affiliate), coproducer: new Set(coproducer) },
      new Set(creator),
      null,
    )
  }

  /**
   * A sale's change: locks one slot of each holder (the transaction's, else a random one), in
   * the fixed order, and writes that slot of them and of the creator accounts. It checks no
   * available; moving a holder's debt onto its shares takes lockShares first (rebalance).
   */
  static async sale(tx: Tx, holders: { affiliate?: string[]; coproducer?: string[] } = {}) {
    const affiliate = [...new Set(holders.affiliate ?? [])]
    const coproducer = [...new Set(holders.coproducer ?? [])]
    const slot = slotKeptBy(tx) ?? randomInt(BALANCE_SLOTS)
    keepSlot(tx, slot)
    await repo.lockHolderSlot(tx, 'affiliate_balances', affiliate, slot)
    await repo.lockHolderSlot(tx, 'coproducer_balances', coproducer, slot)
    return new MoneyChange(
      tx,
      { affiliate: new Set(affiliate), coproducer: new Set(coproducer) },
      new Set(),
      slot,
    )
  }

  /**
   * Before moving a holder's withdrawn money between its shares: a sale, which holds one slot
   * of the holder, serializes with the other sales doing the same. True when it took the lock
   * now (the caller reads the shares again: another sale may have moved them meanwhile). A
   * change holding the holder whole already excludes every other one.
   */
  async lockShares(book: HolderBook, userId: string): Promise<boolean> {
    this.mustHold(book, userId)
    const key = `${book}|${userId}`
    if (this.saleSlot === null || this.shareLocks.has(key)) return false
    await repo.lockHolderShares(this.tx, TABLE_OF[book], userId)
    this.shareLocks.add(key)
    return true
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
   * and writes into slot 0. A sale writes its slot; a change holding its holders whole, slot 0;
   * any other one slot of the transaction (else a random one), locking only that row of each
   * creator account. Then the posting, its entries and the counters.
   */
  async commit(
    ctx: { clock: Clock },
    ref: PostingRef,
    check?: (available: Map<string, number>) => void,
    /** The caller's writes that go in the posting's statement (kit/statement.ts). */
    alongside: Part[] = [],
    /**
     * The caller runs nothing more in the transaction: the posting's statement commits it when
     * it is the change's last (no holder's counters follow it; kit/statement.ts writeParts).
     */
    { endsTransaction = false } = {},
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
    const holdsHolders = this.locked.affiliate.size + this.locked.coproducer.size > 0
    let slot = 0
    if (this.saleSlot !== null) {
      // Its holders' entries go to the slot it locked; a sale checks no creator either.
      if (check) throw new Error('ledger: a sale checks no balance')
      slot = this.saleSlot
    } else if (check) {
      check(await repo.lockCreatorSlots(tx, accounts))
    } else if (this.wholeCreators.size) {
      // Held since begin (a creator's withdrawal touches only its own account).
      if (accounts.some((a) => !this.wholeCreators.has(a))) {
        await repo.lockCreatorSlots(tx, accounts)
      }
    } else if (!holdsHolders) {
      // The id's last hex digit is random (uuidv7's rand_b): the slot of this posting.
      slot = slotKeptBy(tx) ?? Number.parseInt(id.slice(-1), 16) % BALANCE_SLOTS
    }
    keepSlot(tx, slot)
    // The slot rows, created or locked, go in the posting's statement: the entries' trigger,
    // which runs when it ends, adds to them.
    const slotAccounts = [...new Set(accounts)]
    const slots = repo.addCreatorSlotsPart(
      slot,
      slotAccounts.map((accountId) => ({
        accountId,
        counters: this.creators.get(accountId) ?? NO_CREATOR,
      })),
    )
    const holdersAfter = this.holders.affiliate.size + this.holders.coproducer.size > 0
    await repo.insertPostingWithEntries(
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
      })),
      slot,
      slots ? [slots, ...alongside] : alongside,
      { endsTransaction: endsTransaction && !holdersAfter },
    )
    for (const [userId, d] of this.holders.affiliate) {
      await repo.addCounters(tx, 'affiliate_balances', userId, slot, d)
    }
    for (const [userId, d] of this.holders.coproducer) {
      await repo.addCounters(tx, 'coproducer_balances', userId, slot, d)
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
      throw new Error(`ledger: ${book} ${userId} changed without its balance locked first`)
    }
  }
}
