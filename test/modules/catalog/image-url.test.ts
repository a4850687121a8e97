// The product image (migration 0018): an optional https URL up to 2,000 characters, set at
// creation, changed or removed by PATCH, and part of the Product object.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { signupCreator } from '../../setup/actors.ts'
import { createProduct } from '../../setup/purchase.ts'
import { startTestService, type TestService } from '../../setup/service.ts'

let svc: TestService
let key: string
beforeAll(async () => {
  svc = await startTestService()
  key = await (await signupCreator(svc.api)).key(['write:products', 'read:products'])
})
afterAll(() => svc?.stop())

const IMAGE = 'https://cdn.example.com/capas/ceramica.jpg'

describe('product image_url', () => {
  it('is null by default, set at creation, changed and removed by PATCH', async () => {
    const plain = await createProduct(svc.api, key, {})
    expect(plain.image_url).toBeNull()

    const product = await createProduct(svc.api, key, { image_url: IMAGE })
    expect(product.image_url).toBe(IMAGE)
    const read = await svc.api('GET', `/api/v1/products/${product.id}`, { key })
    expect(read.body.data.image_url).toBe(IMAGE)

    const other = 'https://cdn.example.com/capas/nova.png'
    const changed = await svc.api('PATCH', `/api/v1/products/${product.id}`, {
      key,
      body: { image_url: other },
    })
    expect(changed.status).toBe(200)
    expect(changed.body.data.image_url).toBe(other)
    const removed = await svc.api('PATCH', `/api/v1/products/${product.id}`, {
      key,
      body: { image_url: null },
    })
    expect(removed.body.data.image_url).toBeNull()
  })

  it('refuses anything but an https URL of at most 2,000 characters', async () => {
    const product = await createProduct(svc.api, key, {})
    const long = `https://cdn.example.com/${'a'.repeat(2000)}.jpg`
    for (const image_url of [
      'http://cdn.example.com/a.jpg',
      'javascript:alert(1)',
      'capa.jpg',
      long,
    ]) {
      const res = await svc.api('PATCH', `/api/v1/products/${product.id}`, {
        key,
        body: { image_url },
      })
      expect(res.status, image_url.slice(0, 40)).toBe(400)
      expect(JSON.stringify(res.body.details)).toContain('image_url')
    }
    const created = await svc.api('POST', '/api/v1/products', {
      key,
      body: {
        name: 'Sem imagem válida',
        slug: `img-${Date.now()}`,
        billing: 'one_time',
        image_url: 'ftp://cdn.example.com/a.jpg',
        plans: [{ name: 'Único', price: 10 }],
      },
    })
    expect(created.status).toBe(400)
  })
})
