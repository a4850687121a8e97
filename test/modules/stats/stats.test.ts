// GET /api/v1/stats: revenue, paid orders and checkout sessions per São Paulo day, only the
// caller's account, with the period's totals and conversion.
import { randomBytes } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { addDays, todayInSaoPaulo } from '../../../src/modules/stats/service.ts'
import { signupCreator } from '../../setup/actors.ts'
import { paidSale } from '../../setup/ledger.ts'
import { checkout, createProduct } from '../../setup/purchase.ts'
import { engine, startTestService, type TestService } from '../../setup/service.ts'

let svc: TestService
beforeAll(async () => {
  svc = await startTestService()
})
afterAll(() => svc?.stop())

const openSession = (productId: string) =>
  svc.api('POST', '/api/checkout/sessions', {
    body: { product_id: productId, email: `sessao-${randomBytes(4).toString('hex')}@example.com` },
  })

describe(`stats API (${engine})`, () => {
  it("counts the account's paid orders, revenue and sessions of today, never another account's", async () => {
    const creator = await signupCreator(svc.api)
    const other = await signupCreator(svc.api)
    const key = await creator.key(['write:products', 'read:orders'])
    const otherKey = await other.key(['write:products', 'read:orders'])
    const product = await createProduct(svc.api, key, { plans: [{ name: 'Único', price: 150 }] })
    const otherProduct = await createProduct(svc.api, otherKey, {
      plans: [{ name: 'Único', price: 999 }],
    })

    const empty = await svc.api('GET', '/api/v1/stats', { key })
    expect(empty.status).toBe(200)
    expect(empty.body.data).toMatchObject({ revenue: 0, paid_orders: 0, sessions: 0 })
    expect(empty.body.data.conversion).toBeNull()
    expect(empty.body.data.days).toHaveLength(30)

    for (const _ of [1, 2, 3, 4]) expect((await openSession(product.id)).status).toBe(201)
    expect((await openSession(otherProduct.id)).status).toBe(201)
    await paidSale(svc, creator, { productId: product.id, key })
    await paidSale(svc, other, { productId: otherProduct.id, key: otherKey })
    // A pending order is neither revenue nor a paid order.
    expect((await checkout(svc.api, product.id)).status).toBe(201)

    const today = todayInSaoPaulo(svc.deps.clock.now())
    const res = await svc.api('GET', '/api/v1/stats', { key })
    expect(res.status).toBe(200)
    const stats = res.body.data
    expect(stats).toMatchObject({
      to: today,
      from: addDays(today, -29),
      revenue: 150,
      paid_orders: 1,
      sessions: 4,
      conversion: 0.25,
    })
    expect(stats.days.at(-1)).toEqual({ date: today, revenue: 150, paid_orders: 1, sessions: 4 })
    expect(stats.days.slice(0, -1).every((d: { revenue: number }) => d.revenue === 0)).toBe(true)

    // A period that ends yesterday holds none of today's figures.
    const yesterday = addDays(today, -1)
    const before = await svc.api(
      'GET',
      `/api/v1/stats?from=${addDays(today, -6)}&to=${yesterday}`,
      {
        key,
      },
    )
    expect(before.body.data).toMatchObject({ revenue: 0, paid_orders: 0, sessions: 0 })
    expect(before.body.data.days).toHaveLength(6)

    const theirs = await svc.api('GET', `/api/v1/stats?from=${today}&to=${today}`, {
      key: otherKey,
    })
    expect(theirs.body.data).toMatchObject({ revenue: 999, paid_orders: 1, sessions: 1 })
  })

  it('counts a payment on its São Paulo day: 02:30 UTC is the evening before', async () => {
    const creator = await signupCreator(svc.api)
    const key = await creator.key(['write:products', 'read:orders'])
    const product = await createProduct(svc.api, key, { plans: [{ name: 'Único', price: 10 }] })
    const pending = await checkout(svc.api, product.id)
    const row = await svc.deps.db
      .selectFrom('orders')
      .selectAll()
      .where('id', '=', pending.body.order_id)
      .executeTakeFirstOrThrow()
    // Orders written straight to the table: the sandbox clock only moves forward.
    const paidAt = (at: string, n: number) => ({
      ...row,
      id: `00000000-0000-7000-8000-${String(n).padStart(12, '0')}`,
      status: 'paid' as const,
      amount_cents: 1000 * n,
      paid_at: new Date(at),
    })
    await svc.deps.db
      .insertInto('orders')
      .values([
        paidAt('2026-03-10T02:30:00Z', 1), // 09/03 23:30 in São Paulo
        paidAt('2026-03-10T03:00:00Z', 2), // 10/03 00:00 in São Paulo
        paidAt('2026-03-11T02:59:59Z', 4), // 10/03 23:59:59 in São Paulo
      ])
      .execute()
    const res = await svc.api('GET', '/api/v1/stats?from=2026-03-09&to=2026-03-10', { key })
    expect(res.body.data.days).toEqual([
      { date: '2026-03-09', revenue: 10, paid_orders: 1, sessions: 0 },
      { date: '2026-03-10', revenue: 60, paid_orders: 2, sessions: 0 },
    ])
    expect(res.body.data).toMatchObject({ revenue: 70, paid_orders: 3, conversion: null })
  })

  it('refuses a period upside down or longer than 366 days, and a malformed date', async () => {
    const creator = await signupCreator(svc.api)
    const key = await creator.key(['read:orders'])
    const upside = await svc.api('GET', '/api/v1/stats?from=2026-11-10&to=2026-11-01', { key })
    expect(upside.status).toBe(400)
    expect(upside.body.details[0].path).toBe('from')
    const long = await svc.api('GET', '/api/v1/stats?from=2025-01-01&to=2026-11-01', { key })
    expect(long.status).toBe(400)
    expect(long.body.error).toContain('366')
    const year = await svc.api('GET', '/api/v1/stats?from=2025-11-02&to=2026-11-02', { key })
    expect(year.status).toBe(200)
    expect(year.body.data.days).toHaveLength(366)
    expect((await svc.api('GET', '/api/v1/stats?to=2026-13-01', { key })).status).toBe(400)
    const noScope = await creator.key(['read:products'])
    expect((await svc.api('GET', '/api/v1/stats', { key: noScope })).status).toBe(403)
  })
})
