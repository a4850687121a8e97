import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type Creator, signupCreator } from '../setup/actors.ts'
import { checkout, createProduct, pay } from '../setup/purchase.ts'
import { engine, startTestService, type TestService } from '../setup/service.ts'

const READ = ['read:orders', 'read:products', 'read:members', 'write:products', 'write:members']

let svc: TestService
let a: {
  creator: Creator
  key: string
  productId: string
  orderId: string
  buyerId: string
  accessId: string
}
let bKey: string

beforeAll(async () => {
  svc = await startTestService()
  const creatorA = await signupCreator(svc.api, 'Conta A')
  const keyA = await creatorA.key(READ)
  const productA = await createProduct(svc.api, keyA)
  const order = await checkout(svc.api, productA.id)
  await pay(svc.api, order.body.charge_id)
  const members = await svc.api('GET', '/api/v1/members', { key: keyA })
  a = {
    creator: creatorA,
    key: keyA,
    productId: productA.id,
    orderId: order.body.order_id,
    buyerId: members.body.data[0].id,
    accessId: members.body.data[0].access[0].id,
  }
  const creatorB = await signupCreator(svc.api, 'Conta B')
  bKey = await creatorB.key(READ)
  const productB = await createProduct(svc.api, bKey)
  const orderB = await checkout(svc.api, productB.id)
  await pay(svc.api, orderB.body.charge_id)
})
afterAll(() => svc?.stop())

describe(`tenant isolation (${engine})`, () => {
  it("B's key gets 404 on A's order, product and member", async () => {
    for (const path of [
      `/api/v1/orders/${a.orderId}`,
      `/api/v1/products/${a.productId}`,
      `/api/v1/members/${a.buyerId}`,
    ]) {
      const res = await svc.api('GET', path, { key: bKey })
      expect(res.status, path).toBe(404)
      expect(res.body.error).toBeTypeOf('string')
      expect((await svc.api('GET', path, { key: a.key })).status, path).toBe(200)
    }
    const patch = await svc.api('PATCH', `/api/v1/products/${a.productId}`, {
      key: bKey,
      body: { name: 'hack' },
    })
    expect(patch.status).toBe(404)
    const revoke = await svc.api(
      'POST',
      `/api/v1/members/${a.buyerId}/access/${a.accessId}/revoke`,
      {
        key: bKey,
        body: {},
      },
    )
    expect(revoke.status).toBe(404)
  })

  it("A's lists never show B's rows", async () => {
    for (const path of ['/api/v1/orders', '/api/v1/products', '/api/v1/members']) {
      const listA = await svc.api('GET', path, { key: a.key })
      const listB = await svc.api('GET', path, { key: bKey })
      expect(listA.body.data).toHaveLength(1)
      expect(listB.body.data).toHaveLength(1)
      const idsA = listA.body.data.map((r: { id: string }) => r.id)
      const idsB = listB.body.data.map((r: { id: string }) => r.id)
      expect(
        idsA.some((id: string) => idsB.includes(id)),
        path,
      ).toBe(false)
      expect(listA.body).toMatchObject({ page: 1, limit: 50, has_more: false })
    }
  })

  it('lists filter and page', async () => {
    const paid = await svc.api('GET', '/api/v1/orders?status=paid&limit=1', { key: a.key })
    expect(paid.body.data).toHaveLength(1)
    const pending = await svc.api('GET', '/api/v1/orders?status=pending', { key: a.key })
    expect(pending.body.data).toHaveLength(0)
    const tooBig = await svc.api('GET', '/api/v1/orders?limit=101', { key: a.key })
    expect(tooBig.status).toBe(400)
  })
})
