// Links to the hosted checkout are built by creators, affiliates and link shorteners: a
// mangled, repeated or overlong parameter still opens the page (never a JSON error).
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { signupCreator } from '../setup/actors.ts'
import { checkout, createProduct } from '../setup/purchase.ts'
import { engine, startTestService, type TestService } from '../setup/service.ts'
import { type CheckoutProduct, checkoutProducts } from './checkout-fixtures.ts'

let svc: TestService
let key: string
let oneTime: CheckoutProduct
let recurring: CheckoutProduct

beforeAll(async () => {
  svc = await startTestService()
  key = await (await signupCreator(svc.api, 'Ateliê Aurora')).key(['write:products'])
  ;({ oneTime, recurring } = await checkoutProducts(svc.api, key))
})
afterAll(() => svc?.stop())

async function visit(path: string, cookie?: string) {
  const res = await fetch(`${svc.url}${path}`, { headers: cookie ? { cookie } : {} })
  const html = await res.text()
  const config = /<script type="application\/json" id="checkout-config">(.*?)<\/script>/s.exec(html)
  return {
    status: res.status,
    type: res.headers.get('content-type'),
    setCookie: res.headers.getSetCookie().join('; '),
    html,
    config: config ? JSON.parse(config[1]!) : null,
  }
}

describe(`hosted checkout links (${engine})`, () => {
  it('shows the live plans in order and the seller; an archived product is not found', async () => {
    const product = await createProduct(svc.api, key, {
      billing: 'recurring',
      plans: [
        { name: 'Plano Trimestral', price: 90 },
        { name: 'Plano Mensal', price: 35 },
        { name: 'Plano Anual', price: 300, interval: 'year' },
      ],
    })
    const [quarterly, monthly, yearly] = product.plans
    const patched = await svc.api('PATCH', `/api/v1/products/${product.id}`, {
      key,
      body: {
        plans: [
          { id: yearly.id, name: 'Plano Anual', price: 300, interval: 'year' },
          { id: monthly.id, name: 'Plano Mensal', price: 35 },
        ],
      },
    })
    expect(patched.status).toBe(200)
    const page = await visit(`/checkout/${product.slug}`)
    expect(page.status).toBe(200)
    expect(page.config.plans.map((p: { id: string }) => p.id)).toEqual([yearly.id, monthly.id])
    expect(page.html).not.toContain(quarterly.name)
    expect(page.html).toContain('Vendido por <strong>Ateliê Aurora</strong>')

    expect((await checkout(svc.api, product.id, { plan_id: monthly.id })).status).toBe(201)
    const archived = await svc.api('DELETE', `/api/v1/products/${product.id}`, { key })
    expect(archived.body.data.status).toBe('archived')
    expect((await visit(`/checkout/${product.slug}`)).status).toBe(404)
  })

  it("prices every plan with a coupon, or none when it would zero one plan's price", async () => {
    const coupon = (code: string, body: object) =>
      svc.api('POST', `/api/v1/products/${recurring.id}/coupons`, { key, body: { code, ...body } })
    expect((await coupon('DEZ', { amount_off: 10 })).status).toBe(201)
    expect((await coupon('CINQUENTA', { amount_off: 50 })).status).toBe(201)
    const quote = async (code: string) => {
      const res = await fetch(`${svc.url}/checkout/${recurring.slug}/cupom?code=${code}`)
      expect(res.status).toBe(200)
      return (await res.json()) as { coupon: string | null; plans: { price: string }[] }
    }
    const ten = await quote('dez')
    expect(ten.coupon).toBe('DEZ')
    expect(ten.plans.map((p) => p.price)).toEqual(['R$ 29,90/mês', 'R$ 389,00/ano'])
    // R$ 50 off would make the monthly plan (R$ 39,90) free: refused for every plan.
    const fifty = await quote('cinquenta')
    expect(fifty.coupon).toBeNull()
    expect(fifty.plans.map((p) => p.price)).toEqual(['R$ 39,90/mês', 'R$ 399,00/ano'])
  })

  it('ignores a malformed ref and keeps the last of repeated ones', async () => {
    const spaced = await visit(`/checkout/${oneTime.slug}?ref=a%20b`)
    expect(spaced).toMatchObject({ status: 200, type: expect.stringMatching(/^text\/html/) })
    expect(spaced.setCookie).toBe('')
    expect(spaced.config.affiliateCode).toBeNull()
    const repeated = await visit(`/checkout/${oneTime.slug}?ref=PRIMEIRO&ref=SEGUNDO`)
    expect(repeated.status).toBe(200)
    expect(repeated.setCookie).toMatch(/^vitrine_ref=SEGUNDO;/)
    expect(repeated.config.affiliateCode).toBe('SEGUNDO')
  })

  it('does not pass on a tampered ref cookie that the API would refuse', async () => {
    const page = await visit(`/checkout/${oneTime.slug}`, `vitrine_ref=${'x'.repeat(200)}`)
    expect(page.status).toBe(200)
    expect(page.config.affiliateCode).toBeNull()
    const fine = await visit(`/checkout/${oneTime.slug}`, 'vitrine_ref=AFILIADA42')
    expect(fine.config.affiliateCode).toBe('AFILIADA42')
  })

  it('shows an overlong coupon as Cupom inválido and ignores bad plan and session values', async () => {
    const coupon = await visit(`/checkout/${oneTime.slug}?coupon=${'Y'.repeat(70)}`)
    expect(coupon.status).toBe(200)
    expect(coupon.html).toContain(`Cupom inválido: ${'Y'.repeat(64)}<`)
    expect(coupon.config.coupon).toBeNull()
    for (const query of ['plan=nope', 'session=nope', `session=${'-'.repeat(36)}`]) {
      const page = await visit(`/checkout/${oneTime.slug}?${query}`)
      expect(page.status, query).toBe(200)
      expect(page.config.session, query).toBeNull()
    }
  })

  it('answers the 404 page for any unknown or impossible slug, and the success page for a bad order id', async () => {
    for (const slug of ['nao-existe', 'z'.repeat(70), 'Maiúscula']) {
      const page = await visit(`/checkout/${encodeURIComponent(slug)}`)
      expect(page.status, slug).toBe(404)
      expect(page.html).toContain('Produto não encontrado')
    }
    const success = await visit(`/checkout/${oneTime.slug}/success?order_id=nope`)
    expect(success.status).toBe(200)
    expect(success.html).toContain('Quase lá!')
    expect((await visit(`/checkout/${'z'.repeat(70)}/success`)).status).toBe(404)
  })
})
