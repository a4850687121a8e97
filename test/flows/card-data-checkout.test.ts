// The checkout's own rules for card data, where the gateway takes it server-side (Asaas has no
// browser tokenization): checked before any charge, forwarded once with the holder's CEP,
// address number and IP, stored nowhere, and a gateway's refusal answered with its reason.
// Through the real Asaas adapter against its fake, over HTTP, on both databases.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type FakeAsaas, startFakeAsaas } from '../fakes/asaas.ts'
import { signupCreator } from '../setup/actors.ts'
import { asaasEnv } from '../setup/gateway-env.ts'
import { checkout, createProduct } from '../setup/purchase.ts'
import { engine, startTestService, type TestService } from '../setup/service.ts'

const TOKEN = 'asaas-webhook-token-card-data'

let fake: FakeAsaas
let svc: TestService
let key: string
let productId: string
beforeAll(async () => {
  fake = await startFakeAsaas({ webhook: { retryDelayMs: 20 } })
  svc = await startTestService({ PAYMENT_GATEWAY: 'asaas', ...asaasEnv(fake, TOKEN) })
  fake.webhooks.setTarget(`${svc.url}/api/payments/callback/asaas`, TOKEN)
  key = await (await signupCreator(svc.api)).key(['write:products', 'read:orders'])
  productId = (
    await createProduct(svc.api, key, {
      plans: [{ name: 'Único', price: 300 }],
      payment_methods: ['pix', 'card'],
      max_installments: 12,
      installment_interest: 'buyer',
    })
  ).id
})
afterAll(async () => {
  await svc?.stop()
  await fake?.close()
})

const card = (overrides: Record<string, string> = {}) => ({
  holder_name: 'BEATRIZ COMPRADORA',
  number: '4242 4242 4242 4242',
  expiry_month: '7',
  expiry_year: '39',
  cvv: '123',
  ...overrides,
})
const withCard = (overrides: Record<string, unknown> = {}) =>
  checkout(svc.api, productId, {
    payment_method: 'card',
    card: card(),
    postal_code: '01310-100',
    address_number: '1578',
    installments: 2,
    ...overrides,
  })
const paymentsAsked = () =>
  fake.requests.filter((r) => r.method === 'POST' && r.path === '/payments')

describe(`card data for gateways that take it server-side (${engine})`, () => {
  it('checks the card and the address before any charge: Luhn, expiry, CEP, both required', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ card: card({ number: '4242 4242 4242 4241' }) }, 'Número do cartão inválido'],
      [{ card: card({ expiry_year: '2020' }) }, 'Cartão vencido'],
      [{ postal_code: '0131010' }, 'CEP inválido'],
      [{ postal_code: 'a01310100' }, 'CEP inválido'],
      [{ postal_code: undefined }, 'Informe o CEP e o número do endereço do titular do cartão'],
      [{ address_number: undefined }, 'Informe o CEP e o número do endereço do titular do cartão'],
      [{ card: undefined, card_token: 'tok_approved' }, 'Informe os dados do cartão'],
    ]
    for (const [overrides, error] of cases) {
      const res = await withCard(overrides)
      expect(res.body, JSON.stringify(overrides)).toEqual({ error })
      expect(res.status).toBe(400)
    }
    const badCvv = await withCard({ card: card({ cvv: '12' }) })
    expect(badCvv.status).toBe(400)
    expect(paymentsAsked()).toEqual([])
  })

  it("forwards the card once with the holder's CEP, number and IP; stores none of it", async () => {
    const res = await withCard()
    expect(res.status).toBe(201)
    expect(res.body).toMatchObject({ status: 'paid', installments: 2, card: { last4: '4242' } })
    expect(res.body.interest).toBeGreaterThan(0)
    const sent = paymentsAsked()
    expect(sent).toHaveLength(1)
    expect(sent[0]!.body).toMatchObject({
      billingType: 'CREDIT_CARD',
      installmentCount: 2,
      totalValue: res.body.amount,
      creditCard: { number: '************4242' },
      creditCardHolderInfo: { postalCode: '01310100', addressNumber: '1578' },
      remoteIp: '127.0.0.1',
    })
    // Nothing of the card is kept: not in any table of ours.
    for (const table of ['orders', 'charges', 'checkout_sessions', 'events'] as const) {
      const rows = await svc.deps.db.selectFrom(table).selectAll().execute()
      const text = JSON.stringify(rows)
      expect(text, table).not.toContain('4242424242424242')
      expect(text, table).not.toContain('4242 4242 4242 4242')
    }
  })

  it('a refusal by the gateway is a 400 with its reason (502 when our setup was refused); the order fails', async () => {
    const email = 'recusada.entrada@example.com'
    fake.failNextRequest({ method: 'POST', path: '/payments', status: 400 })
    const input = await withCard({ email })
    expect(input).toMatchObject({ status: 400, body: { error: 'Falha simulada pelo fake.' } })
    fake.failNextRequest({ method: 'POST', path: '/payments', status: 401 })
    const setup = await withCard({ email })
    expect(setup.status).toBe(502)
    expect(setup.body.error).toEqual(expect.any(String))
    const orders = await svc.api('GET', `/api/v1/orders?buyer_email=${email}`, { key })
    expect(orders.body.data.map((o: { status: string }) => o.status)).toEqual(['failed', 'failed'])
    const open = await svc.deps.db
      .selectFrom('gateway_checks')
      .select('id')
      .where(
        'id',
        'in',
        orders.body.data.map((o: { id: string }) => o.id),
      )
      .where('status', '=', 'pending')
      .execute()
    expect(open).toEqual([])
  })
})
