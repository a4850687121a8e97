// One money change = one ledger posting. The lock order is fixed for every flow of the
// platform: affiliate rows, then co-producer rows, then creator rows, each sorted by id.
// A change locks its holders when it begins (the flow then reads their shares safely), gathers
// lines and counter deltas while the flow plans, and on commit locks the creator rows it
// touches, lets the flow check them, and writes the posting, its entries and the counters.
import type { Clock } from '../../kit/clock.ts'
import type { Tx } from '../../kit/db.ts'
import type { LedgerBook, PostingKind } from '../../kit/db-schema.ts'
import { uuidv7 } from '../../kit/ids.ts'
import {
  type AffiliateCounters,
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
  ) {}

  /** Locks the holders' balance rows (creating them) in the fixed order. */
  static async begin(tx: Tx, holders: { affiliate?: string[]; coproducer?: string[] } = {}) {
    const affiliate = [...new Set(holders.affiliate ?? [])]
    const coproducer = [...new Set(holders.coproducer ?? [])]
    await repo.lockBalances(tx, 'affiliate_balances', affiliate)
    await repo.lockBalances(tx, 'coproducer_balances', coproducer)
    return new MoneyChange(tx, { affiliate: new Set(affiliate), coproducer: new Set(coproducer) })
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
   * Locks the creator rows this change touches (sorted), runs `check` with their available
   * balances before anything is written, then writes the posting, entries and counters.
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
    const rows = await repo.lockBalances(tx, 'creator_balances', accounts)
    check?.(new Map(rows.map((r) => [r.key, r.available_cents])))

    const now = ctx.clock.now()
    const id = uuidv7(now.getTime())
    const posted = await repo.insertPosting(tx, {
      id,
      kind: ref.kind,
      account_id: ref.accountId ?? null,
      order_id: ref.orderId ?? null,
      refund_id: ref.refundId ?? null,
      withdrawal_id: ref.withdrawalId ?? null,
      created_at: now,
    })
    if (!posted) throw new Error(`ledger: ${ref.kind} was already posted for this fact`)
    await repo.insertEntries(
      tx,
      entries.map((e) => ({
        posting_id: id,
        book: e.book,
        holder_id: e.holderId,
        account_id: e.accountId,
        amount_cents: e.amount,
        created_at: now,
      })),
    )
    for (const [accountId, d] of this.creators) {
      await repo.addCounters(tx, 'creator_balances', accountId, d)
    }
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
