// The one-column rules of the tables a purchase writes live in domains (migration 0025): each
// column is of its domain, which takes the values the old CHECK took and refuses the rest.
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestDatabase, engine, type TestDatabase } from '../setup/database.ts'

let testDb: TestDatabase
beforeAll(async () => {
  testDb = await createTestDatabase()
})
afterAll(() => testDb?.drop())

const ORDER_STATUSES = ['pending', 'paid', 'refunded', 'chargeback', 'expired', 'failed']
const CHARGE_STATUSES = [
  'pending',
  'paid',
  'failed',
  'expired',
  'refunded',
  'chargeback',
  'canceled',
]
const BOOKS = [
  'creator',
  'affiliate',
  'coproducer',
  'gateway',
  'refunds_payable',
  'payouts_payable',
  'platform_receivable',
  'platform_revenue',
]

const RULES: {
  columns: [table: string, column: string][]
  domain: string
  takes: (string | number)[]
  refuses: (string | number)[]
}[] = [
  {
    columns: [['orders', 'status']],
    domain: 'order_status',
    takes: ORDER_STATUSES,
    refuses: ['shipped'],
  },
  {
    columns: [['orders', 'payment_method']],
    domain: 'payment_method',
    takes: ['pix', 'card', 'boleto'],
    refuses: ['crypto'],
  },
  {
    columns: [['orders', 'installments']],
    domain: 'installment_count',
    takes: [1, 12],
    refuses: [0, 13],
  },
  {
    columns: [['orders', 'amount_cents']],
    domain: 'unsigned_cents',
    takes: [0, 9790],
    refuses: [-1],
  },
  {
    columns: [['charges', 'status']],
    domain: 'charge_status',
    takes: CHARGE_STATUSES,
    refuses: ['approved'],
  },
  {
    columns: [['gateway_checks', 'kind']],
    domain: 'gateway_check_kind',
    takes: ['charge', 'refund', 'transfer'],
    refuses: ['payout'],
  },
  {
    columns: [['gateway_checks', 'status']],
    domain: 'gateway_check_status',
    takes: ['pending', 'settled'],
    refuses: ['failed'],
  },
  {
    columns: [['emails', 'status']],
    domain: 'email_status',
    takes: ['pending', 'sent', 'failed'],
    refuses: ['delivered'],
  },
  {
    columns: [['webhook_deliveries', 'status']],
    domain: 'delivery_status',
    takes: ['pending', 'delivered', 'failed'],
    refuses: ['sent'],
  },
  {
    columns: [['access_grants', 'status']],
    domain: 'grant_status',
    takes: ['active', 'revoked'],
    refuses: ['paused'],
  },
  { columns: [['ledger_entries', 'book']], domain: 'ledger_book', takes: BOOKS, refuses: ['bank'] },
  {
    columns: [['ledger_entries', 'amount_cents']],
    domain: 'nonzero_cents',
    takes: [1, -1],
    refuses: [0],
  },
  {
    columns: [
      ['creator_balances', 'slot'],
      ['affiliate_balances', 'slot'],
      ['coproducer_balances', 'slot'],
    ],
    domain: 'balance_slot',
    takes: [0, 15],
    refuses: [-1, 16],
  },
]

describe(`check domains (${engine})`, () => {
  for (const rule of RULES) {
    it(`${rule.domain}: ${rule.columns.map((c) => c.join('.')).join(', ')}`, async () => {
      const db = testDb.database.db
      for (const [table, column] of rule.columns) {
        const { rows } = await sql<{ domain_name: string | null }>`
          SELECT domain_name FROM information_schema.columns
          WHERE table_schema = 'public' AND table_name = ${table} AND column_name = ${column}`.execute(
          db,
        )
        expect(rows).toEqual([{ domain_name: rule.domain }])
      }
      const cast = (value: string | number) =>
        sql`SELECT CAST(${String(value)} AS ${sql.id(rule.domain)}) AS v`.execute(db)
      for (const value of rule.takes) await expect(cast(value)).resolves.toBeTruthy()
      for (const value of rule.refuses) {
        await expect(cast(value)).rejects.toThrow(
          new RegExp(`value for domain ${rule.domain} violates check constraint`),
        )
      }
    })
  }
})
