// All SQL of the ledger's tables: shares, balance rows, postings and entries, withdrawals and
// their allocations. No rules here; the services decide.
import { type Insertable, type Selectable, sql } from 'kysely'
import type { Executor } from '../../kit/db.ts'
import type { DB, ShareKind, ShareStatus } from '../../kit/db-schema.ts'
import { type Part, writeParts } from '../../kit/statement.ts'
import { type Fragment, fragmentTemplate } from '../../kit/template.ts'

export type ShareRow = Selectable<DB['order_shares']>
/** The holders' balances, striped over 16 slot rows each (migration 0021). */
export type BalanceTable = 'affiliate_balances' | 'coproducer_balances'

const KEY = {
  affiliate_balances: 'user_id',
  coproducer_balances: 'user_id',
} as const

/** The seed's counters beside each running balance, by name → column. */
const COUNTERS = {
  affiliate_balances: {
    paid: 'paid_cents',
    rejected: 'rejected_cents',
    withdrawn: 'withdrawn_cents',
  },
  coproducer_balances: {
    earned: 'earned_cents',
    refunded: 'refunded_cents',
    withdrawn: 'withdrawn_cents',
  },
} as const

type Counters<T extends BalanceTable> = Record<keyof (typeof COUNTERS)[T], number>
export type CreatorCounters = { paid: number; refunded: number; withdrawn: number }
export type AffiliateCounters = Counters<'affiliate_balances'>
export type CoproducerCounters = Counters<'coproducer_balances'>

/**
 * Slot rows per creator account or holder (0 … 15, migrations 0013 and 0021): a sale adds to
 * one of them.
 */
export const BALANCE_SLOTS = 16

export interface CreatorSlotDelta {
  accountId: string
  counters: CreatorCounters
}

/** An entry of a posting, less what it takes from the posting (its id, slot and time). */
export type EntryLine = Pick<
  Selectable<DB['ledger_entries']>,
  'book' | 'holder_id' | 'account_id' | 'amount_cents'
>

// The statements every money change writes, compiled once (kit/template.ts). Their rows come
// as arrays, one per column (cast to the column's type), so one text serves any number of rows.

/**
 * Adds to one slot row of each account, creating it; rows are inserted, so locked, in account
 * order (the fixed lock order, as lockCreatorSlots).
 */
const addCreatorSlots = fragmentTemplate(
  (
    _,
    v: {
      slot: number
      accountIds: string[]
      paid: number[]
      refunded: number[]
      withdrawn: number[]
    },
  ) => sql`INSERT INTO creator_balances (account_id, slot, paid_cents, refunded_cents, withdrawn_cents)
    SELECT t.account_id, ${v.slot}::int2, t.paid, t.refunded, t.withdrawn
    FROM unnest(${v.accountIds}::uuid[], ${v.paid}::int8[], ${v.refunded}::int8[],
      ${v.withdrawn}::int8[]) AS t (account_id, paid, refunded, withdrawn)
    ORDER BY t.account_id
    ON CONFLICT (account_id, slot) DO UPDATE SET
      paid_cents = creator_balances.paid_cents + excluded.paid_cents,
      refunded_cents = creator_balances.refunded_cents + excluded.refunded_cents,
      withdrawn_cents = creator_balances.withdrawn_cents + excluded.withdrawn_cents`,
)

/** A posting, unless its fact was posted already (the unique index). */
const insertPosting = fragmentTemplate(
  (_, v: Selectable<DB['ledger_postings']>) =>
    sql`INSERT INTO ledger_postings (id, kind, account_id, order_id, refund_id, withdrawal_id, created_at)
      VALUES (${v.id}, ${v.kind}, ${v.account_id}, ${v.order_id}, ${v.refund_id}, ${v.withdrawal_id},
        ${v.created_at})
      ON CONFLICT DO NOTHING
      RETURNING id`,
)

/**
 * The entries of the part `posting` (none when it wrote nothing), in the arrays' order. Empty
 * arrays insert nothing, and ledger_entries has no statement trigger on insert: no entries need
 * no other text.
 */
const insertEntries = fragmentTemplate(
  (
    _,
    v: {
      books: string[]
      holderIds: (string | null)[]
      accountIds: string[]
      amounts: number[]
      slot: number
      createdAt: Date
    },
  ) => sql`INSERT INTO ledger_entries (posting_id, book, holder_id, account_id, amount_cents, slot, created_at)
    SELECT posting.id, e.book, e.holder_id, e.account_id, e.amount_cents, ${v.slot}::int2,
      ${v.createdAt}::timestamptz
    FROM posting, unnest(${v.books}::text[], ${v.holderIds}::uuid[], ${v.accountIds}::uuid[],
      ${v.amounts}::int8[]) AS e (book, holder_id, account_id, amount_cents)`,
)

/** What a posting's statement fails with when its fact was posted already. */
const ALREADY_POSTED = 'ledger: this fact was posted already'

/** The statement fails, rolling everything back, when its posting wrote nothing (a repeat). */
const POSTED: Fragment = {
  sql: `SELECT CASE WHEN count(*) = 0 THEN refuse('${ALREADY_POSTED}') ELSE count(*)::int END AS posted
    FROM posting`,
  parameters: [],
}

export const ledgerRepo = {
  /**
   * Locks every slot row of these creator accounts, in (account, slot) order (the fixed lock
   * order), creating slot 0 first where it is missing; returns each account's summed available.
   */
  async lockCreatorSlots(db: Executor, accountIds: string[]) {
    const available = new Map<string, number>()
    if (!accountIds.length) return available
    const sorted = [...new Set(accountIds)].sort()
    await sql`INSERT INTO creator_balances (account_id, slot)
      SELECT id, 0 FROM unnest(${sorted}::uuid[]) AS t(id) ORDER BY id
      ON CONFLICT DO NOTHING`.execute(db)
    const { rows } = await sql<{ account_id: string; available_cents: number }>`
      SELECT account_id, available_cents FROM creator_balances
      WHERE account_id = ANY(${sorted}::uuid[]) ORDER BY account_id, slot FOR UPDATE`.execute(db)
    for (const r of rows) {
      available.set(r.account_id, (available.get(r.account_id) ?? 0) + r.available_cents)
    }
    return available
  },

  /**
   * Adds the counters to one slot of each account, creating the slot row; one statement that
   * locks only those rows (in account order) and never waits on a sale of another slot.
   */
  async addCreatorSlots(db: Executor, slot: number, deltas: CreatorSlotDelta[]): Promise<void> {
    const part = this.addCreatorSlotsPart(slot, deltas)
    if (part) await writeParts(db, [part])
  },

  /** addCreatorSlots as a part of a statement (kit/statement.ts); null when there is none. */
  addCreatorSlotsPart(slot: number, deltas: CreatorSlotDelta[]): Part | null {
    if (!deltas.length) return null
    return {
      name: 'creator_slots',
      query: addCreatorSlots({
        slot,
        accountIds: deltas.map((d) => d.accountId),
        paid: deltas.map((d) => d.counters.paid),
        refunded: deltas.map((d) => d.counters.refunded),
        withdrawn: deltas.map((d) => d.counters.withdrawn),
      }),
    }
  },

  /**
   * Creates the holders' 16 slot rows where they are missing, all in one statement (slot 15
   * present means all are: they are only ever created together, see migration 0021).
   */
  async ensureHolderSlots(db: Executor, table: BalanceTable, sorted: string[]) {
    const key = sql.ref(KEY[table])
    await sql`INSERT INTO ${sql.table(table)} (${key}, slot)
      SELECT t.id, s.slot FROM unnest(${sorted}::uuid[]) AS t(id),
        generate_series(0, ${BALANCE_SLOTS - 1}) AS s(slot)
      WHERE NOT EXISTS (SELECT 1 FROM ${sql.table(table)} b
        WHERE b.${key} = t.id AND b.slot = ${BALANCE_SLOTS - 1})
      ORDER BY t.id, s.slot
      ON CONFLICT DO NOTHING`.execute(db)
  },

  /**
   * Locks every slot row of these holders in (id, slot) order (the fixed lock order), creating
   * them first; returns each holder's summed available.
   */
  async lockHolders(db: Executor, table: BalanceTable, ids: string[]) {
    const available = new Map<string, number>()
    if (!ids.length) return available
    const sorted = [...new Set(ids)].sort()
    await this.ensureHolderSlots(db, table, sorted)
    const key = sql.ref(KEY[table])
    const { rows } = await sql<{ key: string; available_cents: number }>`
      SELECT ${key} AS key, available_cents FROM ${sql.table(table)}
      WHERE ${key} = ANY(${sorted}::uuid[]) ORDER BY ${key}, slot FOR UPDATE`.execute(db)
    for (const r of rows) available.set(r.key, (available.get(r.key) ?? 0) + r.available_cents)
    return available
  },

  /** Locks one slot row of each holder, in id order, creating the holders' rows first. */
  async lockHolderSlot(db: Executor, table: BalanceTable, ids: string[], slot: number) {
    if (!ids.length) return
    const sorted = [...new Set(ids)].sort()
    await this.ensureHolderSlots(db, table, sorted)
    const key = sql.ref(KEY[table])
    await sql`SELECT 1 FROM ${sql.table(table)}
      WHERE ${key} = ANY(${sorted}::uuid[]) AND slot = ${slot}
      ORDER BY ${key} FOR UPDATE`.execute(db)
  },

  /**
   * Serializes the moves of one holder's withdrawn money between its shares among changes
   * that each hold only one slot of that holder (sales absorbing a debt). Taken last, after
   * every row lock of the change but the creator slots, by flows that then wait on nothing a
   * whole-holder flow holds while it waits: no cycle.
   */
  lockHolderShares(db: Executor, table: BalanceTable, id: string) {
    return sql`SELECT pg_advisory_xact_lock(hashtextextended(${`ledger-shares:${table}:${id}`}, 0))`.execute(
      db,
    )
  },

  /** Adds each non-zero delta to its counter column of the holder's slot row. */
  addCounters(
    db: Executor,
    table: BalanceTable,
    id: string,
    slot: number,
    deltas: Record<string, number>,
  ) {
    const columns: Record<string, string> = COUNTERS[table]
    const sets = Object.entries(deltas)
      .filter(([, delta]) => delta !== 0)
      .map(([name, delta]) => {
        const column = sql.ref(columns[name]!)
        return sql`${column} = ${column} + ${delta}`
      })
    if (!sets.length) return Promise.resolve()
    return sql`UPDATE ${sql.table(table)} SET ${sql.join(sets)}
      WHERE ${sql.ref(KEY[table])} = ${id} AND slot = ${slot}`.execute(db)
  },

  /**
   * A posting with its entries, and `alongside` (the creator slots the entries' trigger adds
   * to), in one statement (kit/statement.ts); the statement fails, writing nothing, when the
   * fact was posted already (the posting's unique index leaves `posting` empty, and POSTED
   * refuses). The entries take the posting's slot and time. The trigger runs when the statement
   * ends, so it finds the slot rows the statement created.
   */
  async insertPostingWithEntries(
    db: Executor,
    row: Selectable<DB['ledger_postings']>,
    entries: EntryLine[],
    slot: number,
    alongside: Part[] = [],
    /** The statement ends its transaction (kit/statement.ts writeParts). */
    { endsTransaction = false } = {},
  ): Promise<void> {
    await writeParts(
      db,
      [
        ...alongside,
        { name: 'posting', query: insertPosting(row) },
        {
          name: 'entry',
          query: insertEntries({
            books: entries.map((e) => e.book),
            holderIds: entries.map((e) => e.holder_id),
            accountIds: entries.map((e) => e.account_id),
            amounts: entries.map((e) => e.amount_cents),
            slot,
            createdAt: row.created_at,
          }),
        },
      ],
      POSTED,
      { endsTransaction },
    )
  },

  /** An order's shares, as a part of a statement (kit/statement.ts). */
  insertSharesPart(db: Executor, rows: Insertable<DB['order_shares']>[]): Part {
    return { name: 'shares', query: db.insertInto('order_shares').values(rows) }
  },

  sharesOfOrder(db: Executor, orderId: string, status?: ShareStatus) {
    let query = db.selectFrom('order_shares').selectAll().where('order_id', '=', orderId)
    if (status) query = query.where('status', '=', status)
    return query.orderBy('kind').orderBy('user_id').execute() as Promise<ShareRow[]>
  },

  /** Moves the order's shares from one state to another; returns the rows that moved. */
  moveShares(
    db: Executor,
    orderId: string,
    from: ShareStatus,
    patch: { status: ShareStatus; updated_at: Date; earned_at?: Date },
  ) {
    return db
      .updateTable('order_shares')
      .set(patch)
      .where('order_id', '=', orderId)
      .where('status', '=', from)
      .returningAll()
      .execute() as Promise<ShareRow[]>
  },

  /**
   * Paid shares with room left, oldest earnings first. The status is a literal in the text, not a
   * parameter, so that a generic plan can use the partial index (test/kit/db.test.ts).
   */
  freeShares(db: Executor, kind: ShareKind, userId: string, limit: number) {
    return db
      .selectFrom('order_shares')
      .selectAll()
      .where('kind', '=', kind)
      .where('user_id', '=', userId)
      .where('status', '=', sql.lit('paid'))
      .whereRef('allocated_cents', '<', 'amount_cents')
      .orderBy('earned_at')
      .orderBy('id')
      .limit(limit)
      .execute() as Promise<ShareRow[]>
  },

  /**
   * Withdrawn money sitting on rejected shares (debts), oldest first, with its withdrawals.
   * The status and the sign are literals in the text, not parameters, so that a generic plan
   * can use the partial index (test/kit/db.test.ts).
   */
  debtPieces(db: Executor, kind: ShareKind, userId: string) {
    return db
      .selectFrom('order_shares as s')
      .innerJoin('withdrawal_allocations as a', 'a.share_id', 's.id')
      .select(['a.withdrawal_id', 'a.share_id', 'a.account_id', 'a.amount_cents'])
      .where('s.kind', '=', kind)
      .where('s.user_id', '=', userId)
      .where('s.status', '=', sql.lit('rejected'))
      .where('s.allocated_cents', '>', sql.lit(0))
      .orderBy('s.earned_at')
      .orderBy('s.id')
      .orderBy('a.withdrawal_id')
      .execute()
  },

  addAllocated(db: Executor, shareId: string, delta: number) {
    return db
      .updateTable('order_shares')
      .set((eb) => ({ allocated_cents: eb('allocated_cents', '+', delta) }))
      .where('id', '=', shareId)
      .execute()
  },

  /** Adds `amount` to a withdrawal's piece on a share (creating the piece). */
  addAllocation(
    db: Executor,
    piece: { withdrawalId: string; shareId: string; accountId: string },
    amount: number,
  ) {
    return db
      .insertInto('withdrawal_allocations')
      .values({
        withdrawal_id: piece.withdrawalId,
        share_id: piece.shareId,
        account_id: piece.accountId,
        amount_cents: amount,
      })
      .onConflict((oc) =>
        oc.columns(['withdrawal_id', 'share_id']).doUpdateSet((eb) => ({
          amount_cents: eb('withdrawal_allocations.amount_cents', '+', amount),
        })),
      )
      .execute()
  },

  /** Takes `amount` off a withdrawal's piece on a share; a piece taken whole goes away. */
  async takeAllocation(
    db: Executor,
    piece: { withdrawalId: string; shareId: string },
    amount: number,
  ) {
    const gone = await db
      .deleteFrom('withdrawal_allocations')
      .where('withdrawal_id', '=', piece.withdrawalId)
      .where('share_id', '=', piece.shareId)
      .where('amount_cents', '=', amount)
      .executeTakeFirst()
    if (gone.numDeletedRows > 0n) return
    await db
      .updateTable('withdrawal_allocations')
      .set((eb) => ({ amount_cents: eb('amount_cents', '-', amount) }))
      .where('withdrawal_id', '=', piece.withdrawalId)
      .where('share_id', '=', piece.shareId)
      .executeTakeFirstOrThrow()
  },

  allocationsOf(db: Executor, withdrawalId: string) {
    return db
      .selectFrom('withdrawal_allocations')
      .selectAll()
      .where('withdrawal_id', '=', withdrawalId)
      .orderBy('share_id')
      .execute()
  },

  deleteAllocationsOf(db: Executor, withdrawalId: string) {
    return db
      .deleteFrom('withdrawal_allocations')
      .where('withdrawal_id', '=', withdrawalId)
      .execute()
  },

  insertWithdrawal(db: Executor, row: Insertable<DB['ledger_withdrawals']>) {
    return db
      .insertInto('ledger_withdrawals')
      .values(row)
      .onConflict((oc) => oc.doNothing())
      .returningAll()
      .executeTakeFirst()
  },

  findWithdrawal(db: Executor, withdrawalId: string) {
    return db
      .selectFrom('ledger_withdrawals')
      .selectAll()
      .where('withdrawal_id', '=', withdrawalId)
      .executeTakeFirst()
  },

  /** held → released | settled, once. */
  moveWithdrawal(db: Executor, withdrawalId: string, to: 'released' | 'settled', at: Date) {
    return db
      .updateTable('ledger_withdrawals')
      .set({ status: to, updated_at: at })
      .where('withdrawal_id', '=', withdrawalId)
      .where('status', '=', 'held')
      .returningAll()
      .executeTakeFirst()
  },

  creatorBalance(db: Executor, accountId: string) {
    return db
      .selectFrom('creator_balance_view')
      .selectAll()
      .where('account_id', '=', accountId)
      .executeTakeFirst()
  },

  coproducerBalance(db: Executor, userId: string) {
    return db
      .selectFrom('coproducer_balance_view')
      .selectAll()
      .where('user_id', '=', userId)
      .executeTakeFirst()
  },

  affiliateBalance(db: Executor, userId: string) {
    return db
      .selectFrom('affiliate_balance_view')
      .selectAll()
      .where('user_id', '=', userId)
      .executeTakeFirst()
  },
}
