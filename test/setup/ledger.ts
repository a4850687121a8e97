// Reads of the ledger for assertions: sums of entries, slow on purpose (they scan).
import { randomUUID } from 'node:crypto'
import { sql } from 'kysely'
import { expect } from 'vitest'
import { type Db, withTx } from '../../src/kit/db.ts'
import type { LedgerBook } from '../../src/kit/db-schema.ts'
import { type Holder, holdWithdrawal, lockAvailable } from '../../src/modules/ledger/service.ts'
import type { Creator } from './actors.ts'
import { checkout, createProduct, pay } from './purchase.ts'
import type { TestService } from './service.ts'

/** Sum of every entry ever written, and the largest imbalance of any one posting. */
export async function ledgerTotals(db: Db) {
  const { rows } = await sql<{ total: string; worst: string }>`
    SELECT COALESCE(SUM(amount_cents), 0)::text AS total,
      COALESCE((SELECT MAX(ABS(s)) FROM (SELECT SUM(amount_cents) AS s FROM ledger_entries
        GROUP BY posting_id) p), 0)::text AS worst
    FROM ledger_entries`.execute(db)
  return { total: Number(rows[0]!.total), worstPosting: Number(rows[0]!.worst) }
}

/** Sum of a book's entries, optionally for one holder and/or one creator account. */
export async function bookSum(
  db: Db,
  book: LedgerBook,
  filter: { holderId?: string; accountId?: string } = {},
) {
  let query = db
    .selectFrom('ledger_entries')
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('amount_cents'), eb.lit(0)).as('sum'))
    .where('book', '=', book)
  if (filter.holderId) query = query.where('holder_id', '=', filter.holderId)
  if (filter.accountId) query = query.where('account_id', '=', filter.accountId)
  const row = await query.executeTakeFirstOrThrow()
  return Number(row.sum)
}

/** A product of `price` (BRL) sold once and paid through the sandbox; returns the order id. */
export async function paidSale(
  svc: TestService,
  creator: Creator,
  opts: { price?: number; key?: string; productId?: string; body?: Record<string, unknown> } = {},
) {
  const key = opts.key ?? (await creator.key(['write:products']))
  const productId =
    opts.productId ??
    (await createProduct(svc.api, key, { plans: [{ name: 'Único', price: opts.price ?? 97.9 }] }))
      .id
  const created = await checkout(svc.api, productId, opts.body)
  if (created.status !== 201) throw new Error(`checkout ${created.status}`)
  const paid = await pay(svc.api, created.body.charge_id)
  if (paid.body.callback_status !== 200) throw new Error(`pay ${paid.body.callback_status}`)
  return { orderId: created.body.order_id as string, chargeId: created.body.charge_id as string }
}

/**
 * A withdrawal held straight on the ledger (as the payouts module does, without its one-pending
 * rule): 'held', or the error's message ('Saldo insuficiente').
 */
export const holdNow = (svc: TestService, holder: Holder, amountCents: number) =>
  withTx(svc.deps.db, async (tx) => {
    await lockAvailable(tx, holder)
    await holdWithdrawal(tx, svc.deps, { holder, withdrawalId: randomUUID(), amountCents })
  }).then(
    () => 'held',
    (error: Error) => error.message,
  )

const sum = async (query: Promise<{ v: unknown } | undefined>) => Number((await query)?.v ?? 0)

/**
 * The creator's seed balance recomputed the slow way, from orders, refunds, shares and the
 * withdrawals charged to the account (never from the running balance rows).
 */
export async function slowCreatorBalance(db: Db, accountId: string) {
  const v = sql<number>`COALESCE(SUM(amount_cents), 0)`.as('v')
  // The creator's money of an order is its price: the installments' interest is the platform's.
  const price = sql<number>`COALESCE(SUM(amount_cents - interest_cents), 0)`.as('v')
  const paid = await sum(
    db
      .selectFrom('orders')
      .select(price)
      .where('account_id', '=', accountId)
      .where('paid_at', 'is not', null)
      .executeTakeFirst(),
  )
  const refunds = await sum(
    db
      .selectFrom('refunds as r')
      .innerJoin('orders as o', 'o.id', 'r.order_id')
      .select(sql<number>`COALESCE(SUM(r.amount_cents - o.interest_cents), 0)`.as('v'))
      .where('r.account_id', '=', accountId)
      .where('r.status', 'in', ['pending', 'completed'])
      .executeTakeFirst(),
  )
  const chargebacks = await sum(
    db
      .selectFrom('orders')
      .select(price)
      .where('account_id', '=', accountId)
      .where('status', '=', 'chargeback')
      .executeTakeFirst(),
  )
  const own = await sum(
    db
      .selectFrom('ledger_withdrawals')
      .select(v)
      .where('holder_kind', '=', 'creator')
      .where('holder_id', '=', accountId)
      .where('status', 'in', ['held', 'settled'])
      .executeTakeFirst(),
  )
  const charged = await db
    .selectFrom('withdrawal_allocations as a')
    .innerJoin('order_shares as s', 's.id', 'a.share_id')
    .innerJoin('ledger_withdrawals as w', 'w.withdrawal_id', 'a.withdrawal_id')
    .select(['s.kind', sql<number>`SUM(a.amount_cents)`.as('v')])
    .where('a.account_id', '=', accountId)
    .where('w.status', 'in', ['held', 'settled'])
    .groupBy('s.kind')
    .execute()
  const live = await db
    .selectFrom('order_shares')
    .select(['kind', sql<number>`SUM(amount_cents)`.as('v')])
    .where('account_id', '=', accountId)
    .where('status', '=', 'paid')
    .groupBy('kind')
    .execute()
  const of = (rows: { kind: string; v: number }[], kind: string) =>
    Number(rows.find((r) => r.kind === kind)?.v ?? 0)
  const refunded = refunds + chargebacks
  const withdrawn = own + of(charged, 'commission') + of(charged, 'split')
  const coproducerOwed = of(live, 'split') - of(charged, 'split')
  const affiliateOwed = of(live, 'commission') - of(charged, 'commission')
  return {
    paid_total: paid,
    refunded_total: refunded,
    withdrawn_total: withdrawn,
    coproducer_owed: coproducerOwed,
    affiliate_owed: affiliateOwed,
    available: paid - refunded - withdrawn - coproducerOwed - affiliateOwed,
  }
}

async function holderShares(db: Db, kind: 'commission' | 'split', userId: string) {
  const rows = await db
    .selectFrom('order_shares')
    .select(['status', sql<number>`SUM(amount_cents)`.as('v'), sql<number>`COUNT(*)`.as('n')])
    .where('kind', '=', kind)
    .where('user_id', '=', userId)
    .groupBy('status')
    .execute()
  const withdrawn = await sum(
    db
      .selectFrom('ledger_withdrawals')
      .select(sql<number>`COALESCE(SUM(amount_cents), 0)`.as('v'))
      .where('holder_kind', '=', kind === 'commission' ? 'affiliate' : 'coproducer')
      .where('holder_id', '=', userId)
      .where('status', 'in', ['held', 'settled'])
      .executeTakeFirst(),
  )
  const of = (status: string, f: 'v' | 'n' = 'v') =>
    Number(rows.find((r) => r.status === status)?.[f] ?? 0)
  return { of, withdrawn }
}

/** An affiliate's seed balance from the commissions' states and the withdrawals. */
export async function slowAffiliateBalance(db: Db, userId: string) {
  const { of, withdrawn } = await holderShares(db, 'commission', userId)
  return {
    paid_total: of('paid'),
    rejected_total: of('rejected'),
    pending_count: of('pending', 'n'),
    withdrawn,
    available: of('paid') - withdrawn,
  }
}

/** A co-producer's seed balance from the splits' states and the withdrawals. */
export async function slowCoproducerBalance(db: Db, userId: string) {
  const { of, withdrawn } = await holderShares(db, 'split', userId)
  const earned = of('paid') + of('rejected')
  return {
    earned_total: earned,
    refunded_total: of('rejected'),
    withdrawn,
    available: earned - of('rejected') - withdrawn,
  }
}

/**
 * For these holders: the seed formulas recomputed the slow way equal the balance views, and the
 * views equal the ledger's books; the whole ledger sums to zero; every allocation adds up; and
 * nobody carries a debt while they have earnings with room to absorb it.
 */
export async function expectBooksExact(
  db: Db,
  who: { accounts: string[]; affiliates: string[]; coproducers: string[] },
) {
  for (const accountId of who.accounts) {
    const view = await db
      .selectFrom('creator_balance_view')
      .select([
        'paid_total',
        'refunded_total',
        'withdrawn_total',
        'coproducer_owed',
        'affiliate_owed',
        'available',
      ])
      .where('account_id', '=', accountId)
      .executeTakeFirst()
    if (!view) continue
    expect(await slowCreatorBalance(db, accountId)).toEqual(view)
    expect(await bookSum(db, 'creator', { holderId: accountId })).toBe(view.available)
    expect(await bookSum(db, 'affiliate', { accountId })).toBe(view.affiliate_owed)
    expect(await bookSum(db, 'coproducer', { accountId })).toBe(view.coproducer_owed)
  }
  for (const userId of who.affiliates) {
    const view = await db
      .selectFrom('affiliate_balance_view')
      .select(['paid_total', 'rejected_total', 'pending_count', 'withdrawn', 'available'])
      .where('user_id', '=', userId)
      .executeTakeFirst()
    if (!view) continue
    expect(await slowAffiliateBalance(db, userId)).toEqual(view)
    expect(await bookSum(db, 'affiliate', { holderId: userId })).toBe(view.available)
  }
  for (const userId of who.coproducers) {
    const view = await db
      .selectFrom('coproducer_balance_view')
      .select(['earned_total', 'refunded_total', 'withdrawn', 'available'])
      .where('user_id', '=', userId)
      .executeTakeFirst()
    if (!view) continue
    expect(await slowCoproducerBalance(db, userId)).toEqual(view)
    expect(await bookSum(db, 'coproducer', { holderId: userId })).toBe(view.available)
  }
  expect(await ledgerTotals(db)).toEqual({ total: 0, worstPosting: 0 })
  const { rows: badShares } = await sql`
    SELECT s.id FROM order_shares s
    LEFT JOIN (SELECT share_id, SUM(amount_cents) AS v FROM withdrawal_allocations
      GROUP BY share_id) a ON a.share_id = s.id
    WHERE s.allocated_cents <> COALESCE(a.v, 0)`.execute(db)
  expect(badShares).toEqual([])
  const { rows: badWithdrawals } = await sql`
    SELECT w.withdrawal_id FROM ledger_withdrawals w
    LEFT JOIN (SELECT withdrawal_id, SUM(amount_cents) AS v FROM withdrawal_allocations
      GROUP BY withdrawal_id) a ON a.withdrawal_id = w.withdrawal_id
    WHERE w.holder_kind <> 'creator'
      AND COALESCE(a.v, 0) <> CASE WHEN w.status = 'released' THEN 0 ELSE w.amount_cents END`.execute(
    db,
  )
  expect(badWithdrawals).toEqual([])
  const { rows: debtWithRoom } = await sql`
    SELECT d.user_id FROM order_shares d JOIN order_shares f
      ON f.kind = d.kind AND f.user_id = d.user_id
    WHERE d.status = 'rejected' AND d.allocated_cents > 0
      AND f.status = 'paid' AND f.allocated_cents < f.amount_cents`.execute(db)
  expect(debtWithRoom).toEqual([])
}
