// All SQL of the ledger's tables: shares, balance rows, postings and entries, withdrawals and
// their allocations. No rules here; the services decide.
import { type Insertable, type Selectable, sql } from 'kysely'
import type { Executor } from '../../kit/db.ts'
import type { DB, ShareKind, ShareStatus } from '../../kit/db-schema.ts'
import { type Part, writeParts } from '../../kit/statement.ts'

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
    const part = this.addCreatorSlotsPart(db, slot, deltas)
    if (part) await part.query.execute()
  },

  /** addCreatorSlots as a part of a statement (kit/statement.ts); null when there is none. */
  addCreatorSlotsPart(db: Executor, slot: number, deltas: CreatorSlotDelta[]) {
    if (!deltas.length) return null
    const rows = [...deltas]
      .sort((a, b) => (a.accountId < b.accountId ? -1 : a.accountId > b.accountId ? 1 : 0))
      .map((d) => ({
        account_id: d.accountId,
        slot,
        paid_cents: d.counters.paid,
        refunded_cents: d.counters.refunded,
        withdrawn_cents: d.counters.withdrawn,
      }))
    return {
      name: 'creator_slots',
      query: db
        .insertInto('creator_balances')
        .values(rows)
        .onConflict((oc) =>
          oc.columns(['account_id', 'slot']).doUpdateSet((eb) => ({
            paid_cents: eb('creator_balances.paid_cents', '+', eb.ref('excluded.paid_cents')),
            refunded_cents: eb(
              'creator_balances.refunded_cents',
              '+',
              eb.ref('excluded.refunded_cents'),
            ),
            withdrawn_cents: eb(
              'creator_balances.withdrawn_cents',
              '+',
              eb.ref('excluded.withdrawn_cents'),
            ),
          })),
        ),
    } satisfies Part
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
   * A posting and its entries in one statement; false (nothing written) when the fact was
   * posted already (the posting's unique index). The entries' triggers run as before.
   */
  /**
   * A posting with its entries, and `alongside` (the creator slots the entries' trigger adds
   * to), in one statement (kit/statement.ts); false when the fact was posted already. The
   * trigger runs when the statement ends, so it finds the slot rows the statement created.
   */
  async insertPostingWithEntries(
    db: Executor,
    row: Selectable<DB['ledger_postings']>,
    entries: Omit<Insertable<DB['ledger_entries']>, 'posting_id'>[],
    alongside: Part[] = [],
  ): Promise<boolean> {
    const parts: Part[] = [
      ...alongside,
      {
        name: 'posting',
        query: sql`INSERT INTO ledger_postings (id, kind, account_id, order_id, refund_id, withdrawal_id, created_at)
          VALUES (${row.id}, ${row.kind}, ${row.account_id}, ${row.order_id}, ${row.refund_id},
            ${row.withdrawal_id}, ${row.created_at})
          ON CONFLICT DO NOTHING
          RETURNING id`,
      },
    ]
    if (entries.length) {
      const values = entries.map(
        (e) =>
          sql`(${e.book}::text, ${e.holder_id ?? null}::uuid, ${e.account_id}::uuid, ${e.amount_cents}::int8, ${e.slot ?? 0}::smallint, ${e.created_at}::timestamptz)`,
      )
      parts.push({
        name: 'entry',
        query: sql`INSERT INTO ledger_entries (posting_id, book, holder_id, account_id, amount_cents, slot, created_at)
          SELECT posting.id, v.book, v.holder_id, v.account_id, v.amount_cents, v.slot, v.created_at
          FROM posting, (VALUES ${sql.join(values)}) AS v (book, holder_id, account_id, amount_cents, slot, created_at)`,
      })
    }
    const [result] = await writeParts(
      db,
      parts,
      sql<{ posted: number }>`SELECT count(*)::int AS posted FROM posting`,
    )
    return result!.posted > 0
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

  /** Paid shares with room left, oldest earnings first. */
  freeShares(db: Executor, kind: ShareKind, userId: string, limit: number) {
    return db
      .selectFrom('order_shares')
      .selectAll()
      .where('kind', '=', kind)
      .where('user_id', '=', userId)
      .where('status', '=', 'paid')
      .whereRef('allocated_cents', '<', 'amount_cents')
      .orderBy('earned_at')
      .orderBy('id')
      .limit(limit)
      .execute() as Promise<ShareRow[]>
  },

  /** Withdrawn money sitting on rejected shares (debts), oldest first, with its withdrawals. */
  debtPieces(db: Executor, kind: ShareKind, userId: string) {
    return db
      .selectFrom('order_shares as s')
      .innerJoin('withdrawal_allocations as a', 'a.share_id', 's.id')
      .select(['a.withdrawal_id', 'a.share_id', 'a.account_id', 'a.amount_cents'])
      .where('s.kind', '=', kind)
      .where('s.user_id', '=', userId)
      .where('s.status', '=', 'rejected')
      .where('s.allocated_cents', '>', 0)
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
