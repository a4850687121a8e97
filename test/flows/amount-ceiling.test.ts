// One documented maximum for every amount the API takes, R$ 99.999.999,99 (what a boleto's
// amount field holds): beyond it prices, coupon amounts and withdrawals are refused with 400;
// sales at it keep the account's books, and its later payment callbacks, working.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type Creator, signupCreator } from '../setup/actors.ts'
import { withdraw } from '../setup/payouts.ts'
import { checkout, createProduct, pay } from '../setup/purchase.ts'
import { engine, startTestService, type TestService } from '../setup/service.ts'

const MAX = 99_999_999.99
/** The price the issue showed accepted: 2^53 − 1 centavos. */
const HUGE = 90_071_992_547_409.91
const ABOVE_MAX = { message: 'Valor acima do máximo de R$ 99.999.999,99' }

let svc: TestService
let creator: Creator
let key: string
beforeAll(async () => {
  svc = await startTestService()
  creator = await signupCreator(svc.api)
  key = await creator.key(['write:products', 'read:payouts'])
})
afterAll(() => svc?.stop())

describe(`amount ceiling (${engine})`, () => {
  it('a price, coupon amount or withdrawal above R$ 99.999.999,99, or an impossible redemption limit, is refused with 400', async () => {
    const created = await svc.api('POST', '/api/v1/products', {
      key,
      body: {
        name: 'Caro',
        slug: 'caro-demais',
        billing: 'one_time',
        plans: [{ name: 'U', price: HUGE }],
      },
    })
    expect(created.status).toBe(400)
    expect(created.body.details).toEqual([{ path: 'plans.0.price', ...ABOVE_MAX }])

    const product = await createProduct(svc.api, key)
    const patched = await svc.api('PATCH', `/api/v1/products/${product.id}`, {
      key,
      body: { plans: [{ id: product.plans[0].id, name: 'U', price: HUGE }] },
    })
    expect(patched.status).toBe(400)
    expect(patched.body.details).toEqual([{ path: 'plans.0.price', ...ABOVE_MAX }])

    const coupon = await svc.api('POST', `/api/v1/products/${product.id}/coupons`, {
      key,
      body: { code: 'TUDO', amount_off: MAX + 0.01 },
    })
    expect(coupon.status).toBe(400)
    expect(coupon.body.details).toEqual([{ path: 'amount_off', ...ABOVE_MAX }])
    const endless = await svc.api('POST', `/api/v1/products/${product.id}/coupons`, {
      key,
      body: { code: 'SEMFIM', percent_off: 10, max_redemptions: 3_000_000_000 },
    })
    expect(endless.status).toBe(400)

    const withdrawal = await withdraw(svc.api, creator, HUGE)
    expect(withdrawal.status).toBe(400)
    expect(withdrawal.body.success).toBe(false)

    const openapi = await svc.api('GET', '/openapi.json')
    expect(JSON.stringify(openapi.body)).toContain(`"maximum":${MAX}`)
  })

  it('sales at the maximum are paid, and the next payment callback of the account answers 200', async () => {
    const top = await createProduct(svc.api, key, { plans: [{ name: 'Teto', price: MAX }] })
    const sale = await checkout(svc.api, top.id)
    expect(sale.status).toBe(201)
    expect((await pay(svc.api, sale.body.charge_id)).body.callback_status).toBe(200)

    // A coupon and 12 installments on the maximum price, by card.
    const monthly = await createProduct(svc.api, key, {
      billing: 'recurring',
      plans: [{ name: 'Teto mensal', price: MAX }],
    })
    const coupon = await svc.api('POST', `/api/v1/products/${monthly.id}/coupons`, {
      key,
      body: { code: 'UM', amount_off: 0.01 },
    })
    expect(coupon.status).toBe(201)
    const card = await checkout(svc.api, monthly.id, {
      payment_method: 'card',
      card_token: 'tok_approved',
      installments: 12,
      coupon_code: 'UM',
    })
    expect(card.body).toMatchObject({ status: 'paid', amount: 99_999_999.98 })

    const next = await checkout(svc.api, top.id)
    expect((await pay(svc.api, next.body.charge_id)).body.callback_status).toBe(200)
    const balance = await svc.api('GET', `/api/balance?tenant_id=${creator.accountId}`, { key })
    expect(balance.status).toBe(200)
    expect(balance.body.paid_total).toBe(299_999_999.96)
  })
})
