// A row that names a parent and an account must name the parent's account (migration 0027):
// an order, access grant or share of account A for B's product, an order for another
// product's plan, a delivery of A's event to B's endpoint are refused by the database itself.
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { signupCreator } from '../setup/actors.ts'
import { checkout, createProduct, pay } from '../setup/purchase.ts'
import { engine, eventually, startTestService, type TestService } from '../setup/service.ts'

let svc: TestService
beforeAll(async () => {
  svc = await startTestService()
})
afterAll(() => svc?.stop())

const SCOPES = ['write:products', 'write:webhooks']

class Rollback extends Error {}

/** The constraint a statement broke, or null when it ran (rolled back either way). */
async function brokenConstraint(statement: string): Promise<string | null> {
  try {
    await svc.testDb.database.db.transaction().execute(async (tx) => {
      await sql.raw(statement).execute(tx)
      throw new Rollback()
    })
  } catch (error) {
    if (error instanceof Rollback) return null
    return (error as { constraint?: string }).constraint ?? String(error)
  }
  return null
}

describe(`tenant keys through the parent (${engine})`, () => {
  it("refuses rows whose account is not their product's, plan's or endpoint's", async () => {
    const { api } = svc
    const a = await signupCreator(api)
    const b = await signupCreator(api)
    const keyA = await a.key(SCOPES)
    const keyB = await b.key(SCOPES)
    const productA = await createProduct(api, keyA)
    const otherProductA = await createProduct(api, keyA)
    const productB = await createProduct(api, keyB)
    const hookB = await api('POST', '/api/v1/webhooks', {
      key: keyB,
      body: { url: 'http://127.0.0.1:9/b', events: ['order.paid'] },
    })
    const hookA = await api('POST', '/api/v1/webhooks', {
      key: keyA,
      body: { url: 'http://127.0.0.1:9/a', events: ['order.paid'] },
    })
    expect([hookA.status, hookB.status]).toEqual([201, 201])

    const created = await checkout(api, productA.id)
    expect(created.status).toBe(201)
    expect((await pay(api, created.body.charge_id)).status).toBe(200)
    const orderId: string = created.body.order_id
    const delivery = await eventually(async () => {
      const { rows } = await sql<{ id: string }>`SELECT id FROM webhook_deliveries
        WHERE endpoint_id = ${hookA.body.data.id}`.execute(svc.testDb.database.db)
      return rows[0]
    })

    // Each refused statement points one key at another tenant's (or product's) parent; the same
    // change within the row's own tenant runs (null), so the refusals are the keys', not the
    // statements'.
    const order = `WHERE id = '${orderId}'`
    const cases: [statement: string, refusedBy: string | null][] = [
      [`UPDATE orders SET account_id = '${b.accountId}' ${order}`, 'orders_product_fkey'],
      [`UPDATE orders SET plan_id = '${otherProductA.plans[0].id}' ${order}`, 'orders_plan_fkey'],
      [
        `UPDATE orders SET product_id = '${otherProductA.id}',
          plan_id = '${otherProductA.plans[0].id}' ${order}`,
        null,
      ],
      [
        `UPDATE access_grants SET product_id = '${productB.id}' WHERE order_id = '${orderId}'`,
        'access_grants_product_fkey',
      ],
      [
        `UPDATE access_grants SET product_id = '${otherProductA.id}' WHERE order_id = '${orderId}'`,
        null,
      ],
      [
        `UPDATE webhook_deliveries SET endpoint_id = '${hookB.body.data.id}'
          WHERE id = '${delivery.id}'`,
        'webhook_deliveries_endpoint_fkey',
      ],
      [
        `UPDATE webhook_deliveries SET account_id = '${b.accountId}' WHERE id = '${delivery.id}'`,
        'webhook_deliveries_endpoint_fkey',
      ],
    ]
    for (const [statement, refusedBy] of cases) {
      expect(await brokenConstraint(statement), statement).toBe(refusedBy)
    }
  })

  it('puts subscriptions and order shares under the same keys', async () => {
    const { rows } = await sql<{ table: string; definition: string }>`
      SELECT conrelid::regclass::text AS table, pg_get_constraintdef(oid) AS definition
      FROM pg_constraint
      WHERE contype = 'f' AND conrelid::regclass::text IN ('subscriptions', 'order_shares')
        AND confrelid::regclass::text IN ('accounts', 'products', 'plans')
      ORDER BY 1, 2`.execute(svc.testDb.database.db)
    expect(rows).toEqual([
      {
        table: 'order_shares',
        definition: 'FOREIGN KEY (product_id, account_id) REFERENCES products(id, account_id)',
      },
      {
        table: 'subscriptions',
        definition: 'FOREIGN KEY (plan_id, product_id) REFERENCES plans(id, product_id)',
      },
      {
        table: 'subscriptions',
        definition: 'FOREIGN KEY (product_id, account_id) REFERENCES products(id, account_id)',
      },
    ])
  })
})
