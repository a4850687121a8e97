// Reads of the ledger for assertions: sums of entries, slow on purpose (they scan).
import { sql } from 'kysely'
import type { Db } from '../../src/kit/db.ts'
import type { LedgerBook } from '../../src/kit/db-schema.ts'
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
