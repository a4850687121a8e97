import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openDatabase, withTx } from '../../../src/kit/db.ts'
import { signupCreator } from '../../setup/actors.ts'
import { blockedOnALock } from '../../setup/database.ts'
import { checkout, createProduct } from '../../setup/purchase.ts'
import { engine, eventually, startTestService, type TestService } from '../../setup/service.ts'

let svc: TestService
let productId: string
beforeAll(async () => {
  svc = await startTestService()
  const key = await (await signupCreator(svc.api)).key(['write:products'])
  productId = (await createProduct(svc.api, key, { plans: [{ name: 'x', price: 49.9 }] })).id
})
afterAll(() => svc?.stop())

const usersOf = (email: string) =>
  svc.deps.db.selectFrom('users').select('id').where('email', '=', email).execute()
const ordersOf = (email: string) =>
  svc.deps.db
    .selectFrom('orders')
    .select(['buyer_id', sql<string>`xmin::text`.as('xmin')])
    .where('buyer_email', '=', email)
    .execute()
const accessMailsTo = (email: string) =>
  svc.deps.db
    .selectFrom('emails')
    .select('dedupe_key')
    .where('to_address', '=', email)
    .where('dedupe_key', 'like', 'access:%')
    .execute()

describe(`a checkout's new buyer (${engine})`, () => {
  it('concurrent first checkouts of one e-mail: one buyer, one access mail, every order', async () => {
    const email = `corrida-${Date.now()}@example.com`
    const results = await Promise.all(
      Array.from({ length: 8 }, () => checkout(svc.api, productId, { email })),
    )
    expect(results.map((r) => r.status)).toEqual(Array(8).fill(201))
    const users = await usersOf(email)
    expect(users).toHaveLength(1)
    const orders = await svc.deps.db
      .selectFrom('orders')
      .select('buyer_id')
      .where('buyer_email', '=', email)
      .execute()
    expect(orders).toHaveLength(8)
    expect(new Set(orders.map((o) => o.buyer_id))).toEqual(new Set([users[0]!.id]))
    expect(await accessMailsTo(email)).toEqual([{ dedupe_key: `access:${users[0]!.id}` }])
    const links = await svc.deps.db
      .selectFrom('login_links')
      .select('user_id')
      .where('user_id', '=', users[0]!.id)
      .execute()
    expect(links).toHaveLength(1)
  })

  it('a returning buyer gets an order and no second access mail or link', async () => {
    const email = `volta-${Date.now()}@example.com`
    expect((await checkout(svc.api, productId, { email })).status).toBe(201)
    expect((await checkout(svc.api, productId, { email })).status).toBe(201)
    const [user] = await usersOf(email)
    expect(await accessMailsTo(email)).toHaveLength(1)
    const links = await svc.deps.db
      .selectFrom('login_links')
      .select('user_id')
      .where('user_id', '=', user!.id)
      .execute()
    expect(links).toHaveLength(1)
  })

  // PGlite has one connection: no statement ever waits on another's buyer there.
  if (engine === 'postgres')
    it('a buyer created by another checkout after the statement began: it runs again, finds them', async () => {
      const email = `depois-${Date.now()}@example.com`
      const db = svc.deps.db
      let buyerId = ''
      const pending = await withTx(db, async (tx) => {
        buyerId = crypto.randomUUID()
        await tx
          .insertInto('users')
          .values({ id: buyerId, name: 'Outra', email, created_at: new Date() })
          .execute()
        // The checkout's statement waits on this uncommitted user, then finds it taken but
        // not visible to its own snapshot: without the second run it would be a 500.
        const request = checkout(svc.api, productId, { email })
        await eventually(() => blockedOnALock(db))
        return { request }
      })
      const res = await pending.request
      expect(res.status).toBe(201)
      const order = await db
        .selectFrom('orders')
        .select('buyer_id')
        .where('id', '=', res.body.order_id)
        .executeTakeFirstOrThrow()
      expect(order.buyer_id).toBe(buyerId)
      expect(await accessMailsTo(email)).toEqual([])
    })

  // Checkouts waiting for a connection go together, one transaction (kit/pg-coalescer.ts): with
  // one connection for a dozen buyers, most of them do.
  if (engine === 'postgres')
    it('checkouts sharing transactions for want of connections: one buyer an e-mail, every order', async () => {
      const narrowDb = await openDatabase({ databaseUrl: svc.testDb.url!, poolSize: 1 })
      const narrow = await startTestService({}, { ...svc.testDb, database: narrowDb })
      try {
        const stamp = Date.now()
        const shared = `juntos-${stamp}@example.com`
        const own = Array.from({ length: 6 }, (_, i) => `junto-${i}-${stamp}@example.com`)
        const emails = [...Array(6).fill(shared), ...own]
        const results = await Promise.all(
          emails.map((email) => checkout(narrow.api, productId, { email })),
        )
        expect(results.map((r) => r.status)).toEqual(Array(emails.length).fill(201))
        const users = await usersOf(shared)
        expect(users).toHaveLength(1)
        const orders = await ordersOf(shared)
        expect(orders.map((o) => o.buyer_id)).toEqual(Array(6).fill(users[0]!.id))
        expect(await accessMailsTo(shared)).toHaveLength(1)
        const xmins = orders.map((o) => o.xmin)
        for (const email of own) {
          const [buyer, ...others] = await usersOf(email)
          expect(others).toEqual([])
          const mine = await ordersOf(email)
          expect(mine.map((o) => o.buyer_id)).toEqual([buyer!.id])
          expect(await accessMailsTo(email)).toEqual([{ dedupe_key: `access:${buyer!.id}` }])
          xmins.push(mine[0]!.xmin)
        }
        // Some orders were written in one transaction: the path above was taken.
        expect(new Set(xmins).size).toBeLessThan(emails.length)
      } finally {
        await narrow.stop()
        await narrowDb.close()
      }
    })
})
