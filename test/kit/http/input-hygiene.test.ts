// SPEC §15: a string PostgreSQL cannot store (U+0000) is refused with 400 wherever it comes in
// (body, query, path); a page drops the bad parameter and renders as if it were absent.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { signupCreator } from '../../setup/actors.ts'
import { checkout, createProduct } from '../../setup/purchase.ts'
import { startTestService, type TestService } from '../../setup/service.ts'

const NUL = '\u0000'

let svc: TestService
let key: string
let product: { id: string; slug: string; name: string }
beforeAll(async () => {
  svc = await startTestService()
  key = await (await signupCreator(svc.api)).key(['write:products', 'read:orders'])
  product = await createProduct(svc.api, key)
})
afterAll(() => svc?.stop())

function expectRefused(
  res: { status: number; body: { error: string; details?: { path: string }[] } },
  field: string,
) {
  expect(res.status).toBe(400)
  expect(res.body.error).toBe('Validation failed')
  expect(res.body.details?.map((d) => d.path)).toContain(field)
}

describe('NUL in any string input', () => {
  it('a buyer name in the checkout body → 400 naming the field', async () => {
    expectRefused(await checkout(svc.api, product.id, { name: `Bia${NUL}` }), 'name')
  })

  it('a product name, nested plan name included → 400 naming the fields', async () => {
    const res = await svc.api('POST', '/api/v1/products', {
      key,
      body: {
        name: `Curso${NUL}`,
        slug: 'curso-nul',
        billing: 'one_time',
        plans: [{ name: `Plano${NUL}`, price: 10 }],
      },
    })
    expectRefused(res, 'name')
    expectRefused(res, 'plans.0.name')
  })

  it('a query parameter of an API list → 400', async () => {
    const res = await svc.api('GET', '/api/v1/orders?buyer_email=a%00b', { key })
    expectRefused(res, 'buyer_email')
  })

  it('a path parameter → 400', async () => {
    const res = await svc.api('POST', '/sandbox/charges/ch%00x/pay')
    expectRefused(res, 'charge_id')
  })

  it('a checkout link with ?coupon=%00… renders the page without the coupon', async () => {
    const res = await fetch(`${svc.url}/checkout/${product.slug}?coupon=%00OFF`, {
      headers: { cookie: 'vitrine_ref=ab%00cd' },
    })
    expect(res.status).toBe(200)
    const page = await res.text()
    expect(page).toContain(product.name)
    expect(page).not.toContain('OFF')
    expect(page).toContain('"coupon":null,"affiliateCode":null')
  })
})
