// Deleting a product that has coupons or checkout sessions but no orders (found through the
// dashboard's "Excluir produto": it was a 500, a foreign-key violation). A product with coupons
// only is deleted with them; one that buyers began to check out is archived, like one with
// orders, so their sessions keep pointing at it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { signupCreator } from '../../setup/actors.ts'
import { createProduct } from '../../setup/purchase.ts'
import { engine, startTestService, type TestService } from '../../setup/service.ts'

let svc: TestService
let key: string
beforeAll(async () => {
  svc = await startTestService()
  key = await (await signupCreator(svc.api)).key(['write:products', 'read:products'])
})
afterAll(() => svc?.stop())

describe(`deleting a product without orders (${engine})`, () => {
  it('takes its coupons along: 204, then the product and its coupon list are gone', async () => {
    const product = await createProduct(svc.api, key)
    const coupon = await svc.api('POST', `/api/v1/products/${product.id}/coupons`, {
      key,
      body: { code: 'BEMVINDO', percent_off: 10 },
    })
    expect(coupon.status).toBe(201)
    const listed = await svc.api('GET', `/api/v1/products/${product.id}/coupons`, { key })
    expect(listed.body.data).toMatchObject([{ code: 'BEMVINDO', redemptions: 0 }])

    const deleted = await svc.api('DELETE', `/api/v1/products/${product.id}`, { key })
    expect(deleted.status).toBe(204)
    expect((await svc.api('GET', `/api/v1/products/${product.id}`, { key })).status).toBe(404)
    const after = await svc.api('GET', `/api/v1/products/${product.id}/coupons`, { key })
    expect(after.status).toBe(404)
  })

  it('archives one that a buyer began to check out (200, archived)', async () => {
    const product = await createProduct(svc.api, key)
    const session = await svc.api('POST', '/api/checkout/sessions', {
      body: { product_id: product.id, email: 'compradora@example.com' },
    })
    expect(session.status).toBe(201)

    const deleted = await svc.api('DELETE', `/api/v1/products/${product.id}`, { key })
    expect(deleted.status).toBe(200)
    expect(deleted.body.data.status).toBe('archived')
    expect((await svc.api('GET', `/api/v1/products/${product.id}`, { key })).body.data.status).toBe(
      'archived',
    )
  })
})
