// Boleto through Mercado Pago, which registers boletos with the payer's address: the checkout
// takes `address` and hands it to the adapter (real HTTP to the fake).
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type FakeMercadoPago, startFakeMercadoPago } from '../fakes/mercadopago.ts'
import { signupCreator } from '../setup/actors.ts'
import { mercadoPagoEnv } from '../setup/gateway-env.ts'
import { checkout, createProduct } from '../setup/purchase.ts'
import { engine, startTestService, type TestService } from '../setup/service.ts'

let mp: FakeMercadoPago
let svc: TestService
let productId: string

beforeAll(async () => {
  mp = await startFakeMercadoPago({ now: () => (svc ? svc.deps.clock.now() : new Date()) })
  svc = await startTestService({
    ...mercadoPagoEnv(mp),
  })
  const key = await (await signupCreator(svc.api)).key(['write:products'])
  productId = (
    await createProduct(svc.api, key, {
      plans: [{ name: 'Único', price: 89.9 }],
      payment_methods: ['pix', 'boleto'],
    })
  ).id
})
afterAll(async () => {
  await svc?.stop()
  await mp?.close()
})

const ADDRESS = {
  postal_code: '01310-100',
  street: 'Avenida Paulista',
  number: '1578',
  neighborhood: 'Bela Vista',
  city: 'São Paulo',
  state: 'sp',
}

describe(`boleto with the payer's address (${engine})`, () => {
  it("is issued with the address Mercado Pago asks for, and answers the gateway's printable boleto", async () => {
    const res = await checkout(svc.api, productId, { payment_method: 'boleto', address: ADDRESS })
    expect(res.status).toBe(201)
    expect(res.body).toMatchObject({ status: 'pending', amount: 89.9, pix: null, card: null })
    expect(res.body.boleto.digitable_line).toMatch(/^\d{47}$/)
    expect(res.body.boleto.url).toMatch(/^https?:\/\//)
    const sent = JSON.parse(
      mp.requests.filter((r) => r.method === 'POST' && r.path === '/v1/payments').at(-1)!.body,
    )
    expect(sent.payer.address).toEqual({
      zip_code: '01310100',
      street_name: 'Avenida Paulista',
      street_number: '1578',
      neighborhood: 'Bela Vista',
      city: 'São Paulo',
      federal_unit: 'SP',
    })
  })

  it('refuses a bad CEP or UF before the gateway; without an address the gateway says what is missing', async () => {
    const before = mp.payments().length
    const badCep = await checkout(svc.api, productId, {
      payment_method: 'boleto',
      address: { ...ADDRESS, postal_code: '123' },
    })
    expect(badCep).toMatchObject({ status: 400, body: { error: 'CEP inválido' } })
    const badUf = await checkout(svc.api, productId, {
      payment_method: 'boleto',
      address: { ...ADDRESS, state: 'XX' },
    })
    expect(badUf).toMatchObject({ status: 400, body: { error: 'UF inválida' } })
    expect(mp.payments().length).toBe(before)
    const none = await checkout(svc.api, productId, { payment_method: 'boleto' })
    expect(none.status).toBe(400)
    expect(none.body.error).toMatch(/endereço completo/)
  })
})
