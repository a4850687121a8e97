// Paid callbacks waiting for a connection share one transaction (kit/pg-shared-tx.ts): with one
// connection for a dozen payments of two creators, most do, and every sale still adds up.
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type Database, openDatabase } from '../../src/kit/db.ts'
import { signupCreator } from '../setup/actors.ts'
import { ledgerTotals } from '../setup/ledger.ts'
import { checkout, createProduct, pay } from '../setup/purchase.ts'
import { engine, startTestService, type TestService } from '../setup/service.ts'

let svc: TestService
/**
 * The same database through a pool of one connection (PostgreSQL), else svc itself: its
 * checkouts tell the sandbox to call it back, signed with its own secret.
 */
let narrow: TestService
let narrowDb: Database | undefined
beforeAll(async () => {
  svc = await startTestService()
  if (svc.testDb.url) {
    narrowDb = await openDatabase({ databaseUrl: svc.testDb.url, poolSize: 1 })
    narrow = await startTestService({}, { ...svc.testDb, database: narrowDb })
  } else narrow = svc
})
afterAll(async () => {
  if (narrow !== svc) await narrow?.stop()
  await narrowDb?.close()
  await svc?.stop()
})

/** Orders of `count` buyers of a new creator's product of R$ 49,90, checked out, not paid. */
async function pendingOrders(count: number) {
  const creator = await signupCreator(svc.api)
  const key = await creator.key(['write:products'])
  const product = await createProduct(svc.api, key, { plans: [{ name: 'x', price: 49.9 }] })
  const created = await Promise.all(
    Array.from({ length: count }, (_, i) =>
      checkout(narrow.api, product.id, { email: `junto-${i}-${Date.now()}@example.com` }),
    ),
  )
  return { creator, orders: created.map((c) => c.body as { order_id: string; charge_id: string }) }
}

const count = async (table: 'access_grants' | 'emails' | 'events', where: string) =>
  Number(
    (
      await sql<{ n: string }>`SELECT count(*)::text AS n FROM ${sql.table(table)}
        WHERE ${sql.raw(where)}`.execute(svc.deps.db)
    ).rows[0]!.n,
  )

describe(`paid callbacks sharing transactions (${engine})`, () => {
  it('a dozen payments of two creators at once: each paid once, every balance exact', async () => {
    const sellers = [await pendingOrders(6), await pendingOrders(6)]
    const orders = sellers.flatMap((s) => s.orders)
    // Each paid once through the sandbox, the first order three times more: repeats change nothing.
    const paying = [...orders, orders[0]!, orders[0]!, orders[0]!]
    const answers = await Promise.all(paying.map((o) => pay(narrow.api, o.charge_id)))
    expect(answers.map((a) => a.body.callback_status)).toEqual(Array(paying.length).fill(200))

    const ids = orders.map((o) => o.order_id)
    const paid = await svc.deps.db
      .selectFrom('orders')
      .select(['id', 'status', sql<string>`xmin::text`.as('xmin')])
      .where('id', 'in', ids)
      .execute()
    expect(paid.map((o) => o.status)).toEqual(Array(12).fill('paid'))
    for (const id of ids) {
      expect(await count('access_grants', `order_id = '${id}'`)).toBe(1)
      expect(await count('emails', `dedupe_key = 'delivery:${id}'`)).toBe(1)
      expect(await count('events', `type = 'order.paid' AND data->>'order_id' = '${id}'`)).toBe(1)
    }
    for (const { creator } of sellers) {
      const balance = await svc.deps.db
        .selectFrom('creator_balance_view')
        .selectAll()
        .where('account_id', '=', creator.accountId)
        .executeTakeFirstOrThrow()
      expect(balance).toMatchObject({ paid_total: 6 * 4990, available: 6 * 4990 })
    }
    expect(await ledgerTotals(svc.deps.db)).toEqual({ total: 0, worstPosting: 0 })

    if (engine === 'postgres') {
      // Payments that waited for the one connection went together: fewer transactions than
      // orders, and the sales of one transaction wrote one balance slot (ledger/change.ts).
      const transactions = new Set(paid.map((o) => o.xmin))
      expect(transactions.size).toBeLessThan(12)
      const slots = await sql<{ xmin: string; slots: number }>`
        SELECT o.xmin::text AS xmin, count(DISTINCT e.slot)::int AS slots
        FROM orders o JOIN ledger_postings p ON p.order_id = o.id
        JOIN ledger_entries e ON e.posting_id = p.id AND e.book = 'creator'
        WHERE o.id = ANY(${ids}) GROUP BY 1`.execute(svc.deps.db)
      expect(slots.rows.map((r) => r.slots)).toEqual(Array(transactions.size).fill(1))
    }
  })
})
