import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { signupCreator } from '../../setup/actors.ts'
import { checkout, createProduct } from '../../setup/purchase.ts'
import { startTestService, type TestService } from '../../setup/service.ts'

let svc: TestService
let key: string
beforeAll(async () => {
  svc = await startTestService()
  key = await (await signupCreator(svc.api)).key(['write:products', 'read:products'])
})
afterAll(() => svc?.stop())

describe('products and plans', () => {
  it('creates a recurring product with plans and its checkout URL', async () => {
    const res = await svc.api('POST', '/api/v1/products', {
      key,
      body: {
        name: 'Clube',
        slug: 'clube-teste',
        billing: 'recurring',
        success_url: 'https://example.com/obrigado',
        plans: [
          { name: 'Mensal', price: 29.9 },
          { name: 'Anual', price: 299, interval: 'year' },
        ],
      },
    })
    expect(res.status).toBe(201)
    expect(res.body.data).toMatchObject({
      name: 'Clube',
      billing: 'recurring',
      status: 'active',
      guarantee_days: 7,
      success_url: 'https://example.com/obrigado',
      checkout_url: `${svc.deps.config.checkoutUrl}/checkout/clube-teste`,
    })
    expect(res.body.data.plans).toMatchObject([
      { name: 'Mensal', price: 29.9, interval: 'month', interval_count: 1 },
      { name: 'Anual', price: 299, interval: 'year', interval_count: 1 },
    ])
    const got = await svc.api('GET', `/api/v1/products/${res.body.data.id}`, { key })
    expect(got.body.data).toEqual(res.body.data)
  })

  it('one-time plans take no interval; at least one plan', async () => {
    const withInterval = await svc.api('POST', '/api/v1/products', {
      key,
      body: {
        name: 'X',
        slug: 'x-interval',
        billing: 'one_time',
        plans: [{ name: 'a', price: 1, interval: 'month' }],
      },
    })
    expect(withInterval.status).toBe(400)
    const noPlans = await svc.api('POST', '/api/v1/products', {
      key,
      body: { name: 'X', slug: 'x-noplans', billing: 'one_time', plans: [] },
    })
    expect(noPlans.status).toBe(400)
  })

  it('patches fields and plans: kept plans updated, new ones added, omitted ones archived', async () => {
    const product = await createProduct(svc.api, key, {
      plans: [
        { name: 'A', price: 10 },
        { name: 'B', price: 20 },
      ],
    })
    const [planA] = product.plans
    const res = await svc.api('PATCH', `/api/v1/products/${product.id}`, {
      key,
      body: {
        name: 'Novo nome',
        plans: [
          { id: planA.id, name: 'A+', price: 15 },
          { name: 'C', price: 30 },
        ],
      },
    })
    expect(res.status).toBe(200)
    expect(res.body.data.name).toBe('Novo nome')
    expect(
      res.body.data.plans.map((p: { name: string; price: number }) => [p.name, p.price]),
    ).toEqual([
      ['A+', 15],
      ['C', 30],
    ])
  })

  it('deletes a product without orders; archives one with orders', async () => {
    const unsold = await createProduct(svc.api, key)
    expect((await svc.api('DELETE', `/api/v1/products/${unsold.id}`, { key })).status).toBe(204)
    expect((await svc.api('GET', `/api/v1/products/${unsold.id}`, { key })).status).toBe(404)

    const sold = await createProduct(svc.api, key)
    expect((await checkout(svc.api, sold.id)).status).toBe(201)
    const res = await svc.api('DELETE', `/api/v1/products/${sold.id}`, { key })
    expect(res.status).toBe(200)
    expect(res.body.data.status).toBe('archived')
    const again = await checkout(svc.api, sold.id)
    expect(again.status).toBe(404)
  })

  it('checkout sells a live plan: the one named, else the first; never an archived one', async () => {
    const product = await createProduct(svc.api, key, {
      plans: [
        { name: 'A', price: 10 },
        { name: 'B', price: 20 },
      ],
    })
    const [planA, planB] = product.plans
    const byDefault = await checkout(svc.api, product.id)
    expect(byDefault).toMatchObject({ status: 201, body: { amount: 10 } })
    const named = await checkout(svc.api, product.id, { plan_id: planB.id })
    expect(named).toMatchObject({ status: 201, body: { amount: 20 } })
    // A is archived by leaving it out: B becomes the first, A is no longer sold.
    const patched = await svc.api('PATCH', `/api/v1/products/${product.id}`, {
      key,
      body: { plans: [{ id: planB.id, name: 'B', price: 20 }] },
    })
    expect(patched.status).toBe(200)
    expect(await checkout(svc.api, product.id)).toMatchObject({ body: { amount: 20 } })
    expect(await checkout(svc.api, product.id, { plan_id: planA.id })).toMatchObject({
      status: 400,
      body: { error: 'Plano inválido para este produto' },
    })
  })

  it('checkout refuses a method the billing does not accept', async () => {
    const product = await createProduct(svc.api, key)
    const res = await checkout(svc.api, product.id, {
      payment_method: 'card',
      card_token: 'tok_approved',
    })
    expect(res.status).toBe(400)
    const badCpf = await checkout(svc.api, product.id, { cpf: '111.111.111-11' })
    expect(badCpf).toMatchObject({ status: 400, body: { error: 'CPF/CNPJ inválido' } })
    const badPhone = await checkout(svc.api, product.id, { phone: '123' })
    expect(badPhone.status).toBe(400)
  })
})
