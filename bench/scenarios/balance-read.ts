// Scenario 2: GET /api/balance of an account with 100 orders and of one with 1,000,000 (seeded
// with SQL, sale postings and entries included), read alternately by 4 concurrent clients; and
// the same read straight from the database (the view over the running balance row).
import { sql } from 'kysely'
import type { Db } from '../../src/kit/db.ts'
import { creatorBalance } from '../../src/modules/ledger/balances.ts'
import { request } from '../lib/http.ts'
import { Latency } from '../lib/latency.ts'
import { benchCreator, startBenchService } from '../lib/service.ts'

interface Account {
  accountId: string
  userId: string
  key: string
  productId: string
  planId: string
  orders: number
}

export interface Side {
  orders: number
  http: Latency
  db: Latency
}

export interface BalanceReadResult {
  engine: 'pglite' | 'postgres'
  seedSeconds: number
  small: Side
  large: Side
  errors: number
}

const PRICE_CENTS = 9790
const CLIENTS = 4
const ROUNDS = 4

async function setupAccount(url: string, orders: number): Promise<Account> {
  return { ...(await benchCreator(url, ['write:products', 'read:payouts'], PRICE_CENTS)), orders }
}

/**
 * Paid orders, their sale postings and entries, and the balance row they add up to, written by
 * SQL in one transaction. Triggers are off while seeding (replica role): the row is set to the
 * sum of the seeded entries instead of being kept by 2 million trigger calls.
 */
/** The creator balance slots of an account (migration 0013_balance_slots.sql). */
const SLOTS = 16

async function seedOrders(db: Db, a: Account) {
  await db.transaction().execute(async (tx) => {
    await sql`SET LOCAL session_replication_role = replica`.execute(tx)
    await sql`
      INSERT INTO orders (id, account_id, product_id, plan_id, buyer_id, buyer_email, buyer_name,
        buyer_document, buyer_phone, status, amount_cents, payment_method, paid_at, created_at,
        updated_at)
      SELECT gen_random_uuid(), ${a.accountId}, ${a.productId}, ${a.planId}, ${a.userId},
        'comprador@example.com', 'Comprador', '52998224725', '+5511987654321', 'paid',
        ${PRICE_CENTS}, 'pix', t, t, t
      FROM generate_series(1, ${a.orders}) AS g,
        LATERAL (SELECT timestamptz '2026-01-01' + g * interval '1 second' AS t) AS at`.execute(tx)
    await sql`
      INSERT INTO ledger_postings (id, kind, account_id, order_id, created_at)
      SELECT gen_random_uuid(), 'sale', account_id, id, paid_at FROM orders
      WHERE account_id = ${a.accountId}`.execute(tx)
    await sql`
      INSERT INTO ledger_entries (posting_id, book, holder_id, account_id, amount_cents,
        created_at, slot)
      SELECT p.id, b.book, CASE WHEN b.book = 'creator' THEN p.account_id END, p.account_id,
        b.sign * ${PRICE_CENTS}, p.created_at, abs(hashtext(p.id::text)) % ${SLOTS}
      FROM ledger_postings p CROSS JOIN (VALUES ('gateway', -1), ('creator', 1)) AS b(book, sign)
      WHERE p.account_id = ${a.accountId}`.execute(tx)
    // Spread over the slots as sales spread them (migration 0013), so the read sums them all.
    await sql`
      INSERT INTO creator_balances (account_id, slot, paid_cents, available_cents)
      SELECT ${a.accountId}, slot, SUM(amount_cents), SUM(amount_cents) FROM ledger_entries
      WHERE book = 'creator' AND holder_id = ${a.accountId}
      GROUP BY slot`.execute(tx)
  })
  await sql`ANALYZE`.execute(db)
}

async function measure(seconds: number, read: () => Promise<void>, into: Latency) {
  const until = performance.now() + seconds * 1000
  await Promise.all(
    Array.from({ length: CLIENTS }, async () => {
      while (performance.now() < until) {
        const started = performance.now()
        await read()
        into.add(performance.now() - started)
      }
    }),
  )
}

export async function balanceRead(opts: {
  engine: 'pglite' | 'postgres'
  seconds: number
  orders: number
}): Promise<BalanceReadResult> {
  const { service, stop } = await startBenchService(opts.engine, { WORKER_POLL_MS: '1h' })
  const db = service.deps.db
  let errors = 0
  try {
    const accounts = {
      small: await setupAccount(service.url, 100),
      large: await setupAccount(service.url, opts.orders),
    }
    const seeding = performance.now()
    for (const a of Object.values(accounts)) await seedOrders(db, a)
    const seedSeconds = (performance.now() - seeding) / 1000

    const sides = {
      small: { orders: 100, http: new Latency(), db: new Latency() },
      large: { orders: opts.orders, http: new Latency(), db: new Latency() },
    }
    let counting = false
    const httpRead = (a: Account) => async () => {
      try {
        const res = await request(service.url, 'GET', `/api/balance?tenant_id=${a.accountId}`, {
          headers: { authorization: `Bearer ${a.key}` },
        })
        if (res.status !== 200 || res.body.paid_total !== (a.orders * PRICE_CENTS) / 100) {
          throw new Error(`balance answered ${res.status}`)
        }
      } catch (error) {
        // Keep-alive sockets idle through a long PGlite seed may be reset once in the warm-up.
        if (counting) errors++
        else if ((error as { code?: string }).code !== 'ECONNRESET') throw error
      }
    }
    const dbRead = (a: Account) => async () => {
      await creatorBalance(db, a.accountId)
    }
    for (const a of Object.values(accounts)) await measure(1, httpRead(a), new Latency()) // warm-up
    counting = true
    // Alternate small and large so a noisy neighbour hurts both alike.
    const slice = opts.seconds / ROUNDS
    for (let round = 0; round < ROUNDS; round++) {
      for (const side of ['small', 'large'] as const) {
        await measure(slice / 2, httpRead(accounts[side]), sides[side].http)
        await measure(slice / 2, dbRead(accounts[side]), sides[side].db)
      }
    }
    return { engine: opts.engine, seedSeconds, small: sides.small, large: sides.large, errors }
  } finally {
    await stop()
  }
}
