import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { signupCreator } from '../../setup/actors.ts'
import { checkout, createProduct } from '../../setup/purchase.ts'
import { engine, startTestService, type TestService } from '../../setup/service.ts'

let svc: TestService
let key: string
let productId: string
beforeAll(async () => {
  svc = await startTestService()
  key = await (await signupCreator(svc.api)).key(['write:products', 'read:products', 'read:orders'])
  productId = (await createProduct(svc.api, key, { plans: [{ name: 'x', price: 99.9 }] })).id
})
afterAll(() => svc?.stop())

const coupon = (body: Record<string, unknown>) =>
  svc.api('POST', `/api/v1/products/${productId}/coupons`, { key, body })

describe(`coupons (${engine})`, () => {
  it('percent off, rounded half up, code case-insensitive, recorded on the order', async () => {
    const created = await coupon({ code: 'bemvindo', percent_off: 12.5 })
    expect(created.status).toBe(201)
    expect(created.body.data).toMatchObject({
      code: 'BEMVINDO',
      percent_off: 12.5,
      amount_off: null,
      redemptions: 0,
    })
    const order = await checkout(svc.api, productId, { coupon_code: 'BemVindo' })
    expect(order.status).toBe(201)
    expect(order.body.amount).toBe(87.41) // 99.90 − round(12.4875) = 99.90 − 12.49
    const stored = await svc.api('GET', `/api/v1/orders/${order.body.order_id}`, { key })
    expect(stored.body.data.coupon_code).toBe('BEMVINDO')
  })

  it('amount off', async () => {
    await coupon({ code: 'DEZ', amount_off: 10 })
    expect((await checkout(svc.api, productId, { coupon_code: 'dez' })).body.amount).toBe(89.9)
  })

  it('bad, expired, used-up or price-zeroing coupons → 400 Cupom inválido', async () => {
    await coupon({
      code: 'VENCIDO',
      percent_off: 10,
      expires_at: new Date(Date.now() - 1000).toISOString(),
    })
    await coupon({ code: 'TUDO', amount_off: 500 })
    await coupon({ code: 'UMAVEZ', percent_off: 5, max_redemptions: 1 })
    expect((await checkout(svc.api, productId, { coupon_code: 'UMAVEZ' })).status).toBe(201)
    for (const code of ['NAOEXISTE', 'VENCIDO', 'TUDO', 'UMAVEZ']) {
      const res = await checkout(svc.api, productId, { coupon_code: code })
      expect(res, code).toMatchObject({ status: 400, body: { error: 'Cupom inválido' } })
    }
  })

  it('max redemptions hold under concurrent checkouts', async () => {
    await coupon({ code: 'CORRIDA', percent_off: 20, max_redemptions: 3 })
    const results = await Promise.all(
      Array.from({ length: 12 }, () => checkout(svc.api, productId, { coupon_code: 'CORRIDA' })),
    )
    expect(results.filter((r) => r.status === 201)).toHaveLength(3)
    expect(
      results.filter((r) => r.status === 400).every((r) => r.body.error === 'Cupom inválido'),
    ).toBe(true)
    const list = await svc.api('GET', `/api/v1/products/${productId}/coupons`, { key })
    expect(list.body.data.find((c: { code: string }) => c.code === 'CORRIDA').redemptions).toBe(3)
  })

  it('a checkout retried with its Idempotency-Key, even concurrently, counts one redemption', async () => {
    await coupon({ code: 'REPETE', amount_off: 5, max_redemptions: 10 })
    const body = {
      product_id: productId,
      name: 'Beatriz Compradora',
      email: 'repete@example.com',
      cpf: '529.982.247-25',
      phone: '(11) 98765-4321',
      payment_method: 'pix',
      coupon_code: 'REPETE',
    }
    const send = () =>
      svc.api('POST', '/api/checkout/create', { body, headers: { 'idempotency-key': 'repete-1' } })
    const burst = await Promise.all([send(), send(), send(), send()])
    const retried = await send()
    const created = [...burst, retried].filter((r) => r.status === 201)
    expect(new Set(created.map((r) => r.body.order_id)).size).toBe(1)
    expect(burst.every((r) => r.status === 201 || r.status === 409)).toBe(true)
    // "Still in progress" says when to come back; the hosted checkout retries it by itself.
    for (const busy of burst.filter((r) => r.status === 409)) {
      expect(busy.headers.get('retry-after')).toBe('1')
    }
    expect(retried.status).toBe(201)
    const list = await svc.api('GET', `/api/v1/products/${productId}/coupons`, { key })
    expect(list.body.data.find((c: { code: string }) => c.code === 'REPETE').redemptions).toBe(1)
  })

  it('an expired order gives its redemption back', async () => {
    await coupon({ code: 'VOLTA', percent_off: 10, max_redemptions: 1 })
    const first = await checkout(svc.api, productId, { coupon_code: 'VOLTA' })
    expect((await checkout(svc.api, productId, { coupon_code: 'VOLTA' })).status).toBe(400)
    await svc.api('POST', `/sandbox/charges/${first.body.charge_id}/expire`)
    expect((await checkout(svc.api, productId, { coupon_code: 'VOLTA' })).status).toBe(201)
  })

  it('refuses a duplicate code, a coupon with both or neither discount, a percent with three decimals', async () => {
    expect((await coupon({ code: 'DEZ', amount_off: 5 })).status).toBe(409)
    expect((await coupon({ code: 'AMBOS', amount_off: 5, percent_off: 5 })).status).toBe(400)
    expect((await coupon({ code: 'NENHUM' })).status).toBe(400)
    const tooPrecise = await coupon({ code: 'MILESIMO', percent_off: 10.005 })
    expect(tooPrecise.status).toBe(400)
    expect(tooPrecise.body.details[0].message).toBe(
      'Percentual inválido: use de 0,01 a 100, com até duas casas decimais',
    )
  })
})
