// Card (with installments) and boleto on one-time products (SPEC §4 [decided], issue 11 point 5):
// product fields, the checkout's rules, the amounts charged and where the interest goes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type Creator, signupCreator } from '../setup/actors.ts'
import { bookSum, expectBooksExact, ledgerTotals } from '../setup/ledger.ts'
import { checkout, createProduct, pay } from '../setup/purchase.ts'
import { engine, eventually, startTestService, type TestService } from '../setup/service.ts'

let svc: TestService
let creator: Creator
let key: string

beforeAll(async () => {
  svc = await startTestService()
  creator = await signupCreator(svc.api)
  key = await creator.key([
    'write:products',
    'read:products',
    'read:orders',
    'read:payouts',
    'refunds:create',
    'read:refunds',
  ])
})
afterAll(() => svc?.stop())

const orderRow = (id: string) =>
  svc.deps.db.selectFrom('orders').selectAll().where('id', '=', id).executeTakeFirstOrThrow()
const chargeRow = (orderId: string) =>
  svc.deps.db
    .selectFrom('charges')
    .selectAll()
    .where('order_id', '=', orderId)
    .executeTakeFirstOrThrow()
const balance = async () =>
  (await svc.api('GET', `/api/balance?tenant_id=${creator.accountId}`, { key })).body

describe(`product payment fields (${engine})`, () => {
  it("keep the seed's defaults, are set on create and PATCH, and refuse what cannot be", async () => {
    const oneTime = await createProduct(svc.api, key)
    expect(oneTime).toMatchObject({
      payment_methods: ['pix'],
      max_installments: 1,
      installment_interest: 'seller',
    })
    const recurring = await createProduct(svc.api, key, {
      billing: 'recurring',
      plans: [{ name: 'Mensal', price: 29.9 }],
    })
    expect(recurring).toMatchObject({
      payment_methods: ['pix', 'card', 'boleto'],
      max_installments: 12,
      installment_interest: 'seller',
    })

    const chosen = await createProduct(svc.api, key, {
      payment_methods: ['boleto', 'card', 'pix'],
      max_installments: 6,
      installment_interest: 'buyer',
    })
    // Stored in a fixed order, whatever order they came in.
    expect(chosen).toMatchObject({
      payment_methods: ['pix', 'card', 'boleto'],
      max_installments: 6,
      installment_interest: 'buyer',
    })
    const patched = await svc.api('PATCH', `/api/v1/products/${chosen.id}`, {
      key,
      body: { payment_methods: ['card'], max_installments: 12, installment_interest: 'seller' },
    })
    expect(patched.status).toBe(200)
    expect(patched.body.data).toMatchObject({
      payment_methods: ['card'],
      max_installments: 12,
      installment_interest: 'seller',
    })
    const read = await svc.api('GET', `/api/v1/products/${chosen.id}`, { key })
    expect(read.body.data.payment_methods).toEqual(['card'])

    const refusals = [
      { payment_methods: [] },
      { payment_methods: ['pix', 'pix'] },
      { payment_methods: ['cash'] },
      { max_installments: 0 },
      { max_installments: 13 },
      { installment_interest: 'nobody' },
    ]
    for (const body of refusals) {
      const res = await svc.api('PATCH', `/api/v1/products/${chosen.id}`, { key, body })
      expect(res.status, JSON.stringify(body)).toBe(400)
    }
    // A subscription's renewals are single charges: the buyer never pays installment interest.
    const buyerPaysRecurring = await svc.api('PATCH', `/api/v1/products/${recurring.id}`, {
      key,
      body: { installment_interest: 'buyer' },
    })
    expect(buyerPaysRecurring).toMatchObject({
      status: 400,
      body: { error: 'Assinaturas (recurring) só parcelam sem juros para o comprador' },
    })
  })
})

describe(`checkout of a one-time product with card and boleto (${engine})`, () => {
  it('a default product refuses card and boleto; installments beyond the maximum or off card are refused', async () => {
    const pixOnly = await createProduct(svc.api, key)
    for (const method of ['card', 'boleto']) {
      const res = await checkout(svc.api, pixOnly.id, {
        payment_method: method,
        card_token: 'tok_approved',
      })
      expect(res).toMatchObject({
        status: 400,
        body: { error: 'Forma de pagamento não aceita para este produto' },
      })
    }
    const three = await createProduct(svc.api, key, {
      payment_methods: ['pix', 'card'],
      max_installments: 3,
    })
    const tooMany = await checkout(svc.api, three.id, {
      payment_method: 'card',
      card_token: 'tok_approved',
      installments: 4,
    })
    expect(tooMany).toMatchObject({
      status: 400,
      body: { error: 'Este produto aceita no máximo 3x no cartão' },
    })
    const pixInParts = await checkout(svc.api, three.id, { payment_method: 'pix', installments: 2 })
    expect(pixInParts).toMatchObject({
      status: 400,
      body: { error: 'Parcelamento só no cartão de crédito' },
    })
    // The sandbox tokenizes in the page: card data never has a reason to reach this server.
    const data = await checkout(svc.api, three.id, {
      payment_method: 'card',
      card: {
        holder_name: 'BEATRIZ C',
        number: '4242 4242 4242 4242',
        expiry_month: '12',
        expiry_year: '2039',
        cvv: '123',
      },
    })
    expect(data).toMatchObject({
      status: 400,
      body: { error: 'Este checkout não recebe dados de cartão: use card_token' },
    })
    const orders = await svc.deps.db
      .selectFrom('orders')
      .select('id')
      .where('product_id', 'in', [pixOnly.id, three.id])
      .execute()
    expect(orders).toEqual([])
  })

  it('card in 3x, the seller paying the interest: the buyer pays the price; the creator keeps it all', async () => {
    const before = await balance()
    const product = await createProduct(svc.api, key, {
      plans: [{ name: 'Único', price: 100 }],
      payment_methods: ['pix', 'card', 'boleto'],
      max_installments: 3,
    })
    const res = await checkout(svc.api, product.id, {
      payment_method: 'card',
      card_token: 'tok_approved',
      installments: 3,
    })
    expect(res.status).toBe(201)
    expect(res.body).toMatchObject({
      status: 'paid',
      amount: 100,
      installments: 3,
      interest: 0,
      card: { status: 'approved', last4: '4242' },
    })
    expect(Object.keys(res.body.card).sort()).toEqual(['last4', 'status'])
    expect(await orderRow(res.body.order_id)).toMatchObject({
      amount_cents: 10_000,
      installments: 3,
      interest_cents: 0,
    })
    expect((await chargeRow(res.body.order_id)).amount_cents).toBe(10_000)
    const after = await balance()
    expect(after.paid_total - before.paid_total).toBeCloseTo(100, 2)
    expect(after.available - before.available).toBeCloseTo(100, 2)
    await expectBooksExact(svc.deps.db, {
      accounts: [creator.accountId],
      affiliates: [],
      coproducers: [],
    })
  })

  it("card in 3x, the buyer paying the interest: charged price + Price-table interest, which is the platform's", async () => {
    const affiliate = await signupCreator(svc.api, 'Afiliada')
    const product = await createProduct(svc.api, key, {
      plans: [{ name: 'Único', price: 100 }],
      payment_methods: ['pix', 'card'],
      max_installments: 3,
      installment_interest: 'buyer',
    })
    const enrolled = await svc.api('POST', `/api/v1/products/${product.id}/affiliates`, {
      key,
      body: { email: affiliate.email, commission_percent: 10 },
    })
    expect(enrolled.status).toBe(201)
    const before = await balance()
    const revenueBefore = await bookSum(svc.deps.db, 'platform_revenue')

    const res = await checkout(svc.api, product.id, {
      payment_method: 'card',
      card_token: 'tok_approved',
      installments: 3,
      affiliate_code: enrolled.body.data.code,
    })
    expect(res.status).toBe(201)
    // 100.00 at 2.99 % a month in 3x: 3 × 35.35 = 106.05 (kit/money's Price table).
    expect(res.body).toMatchObject({
      status: 'paid',
      amount: 106.05,
      installments: 3,
      interest: 6.05,
    })
    const order = await orderRow(res.body.order_id)
    expect(order).toMatchObject({
      amount_cents: 10_605,
      installments: 3,
      interest_cents: 605,
      // The affiliate's 10 % is of the price, not of the interest.
      affiliate_commission_cents: 1000,
    })
    expect((await chargeRow(res.body.order_id)).amount_cents).toBe(10_605)
    const read = await svc.api('GET', `/api/v1/orders/${res.body.order_id}`, { key })
    expect(read.body.data).toMatchObject({
      amount: 106.05,
      installments: 3,
      interest: 6.05,
      affiliate_commission: 10,
    })
    expect((await bookSum(svc.deps.db, 'platform_revenue')) - revenueBefore).toBe(605)
    const after = await balance()
    expect(after.paid_total - before.paid_total).toBeCloseTo(100, 2)
    expect(after.affiliate_owed - before.affiliate_owed).toBeCloseTo(10, 2)
    expect(after.available - before.available).toBeCloseTo(90, 2)
    await expectBooksExact(svc.deps.db, {
      accounts: [creator.accountId],
      affiliates: [affiliate.userId],
      coproducers: [],
    })

    // 1x has no interest, whoever pays it.
    const once = await checkout(svc.api, product.id, {
      payment_method: 'card',
      card_token: 'tok_approved',
    })
    expect(once.body).toMatchObject({ status: 'paid', amount: 100, installments: 1, interest: 0 })

    // A refund gives the buyer everything they paid back; the platform returns its interest.
    const refund = await svc.api('POST', `/api/v1/orders/${res.body.order_id}/refund`, {
      key,
      body: { reason: 'Desistiu' },
    })
    expect(refund.status).toBe(201)
    await eventually(async () => (await orderRow(res.body.order_id)).status === 'refunded')
    const refundRow = await svc.deps.db
      .selectFrom('refunds')
      .selectAll()
      .where('order_id', '=', res.body.order_id)
      .executeTakeFirstOrThrow()
    expect(refundRow.amount_cents).toBe(10_605)
    expect((await bookSum(svc.deps.db, 'platform_revenue')) - revenueBefore).toBe(0)
    const refunded = await balance()
    expect(refunded.refunded_total - before.refunded_total).toBeCloseTo(100, 2)
    await expectBooksExact(svc.deps.db, {
      accounts: [creator.accountId],
      affiliates: [affiliate.userId],
      coproducers: [],
    })
    expect(await ledgerTotals(svc.deps.db)).toEqual({ total: 0, worstPosting: 0 })
  })

  it('boleto on a one-time product: line and due date, then paid by the gateway', async () => {
    const product = await createProduct(svc.api, key, {
      plans: [{ name: 'Único', price: 49.9 }],
      payment_methods: ['pix', 'boleto'],
    })
    const res = await checkout(svc.api, product.id, { payment_method: 'boleto' })
    expect(res.status).toBe(201)
    expect(res.body).toMatchObject({
      status: 'pending',
      amount: 49.9,
      installments: 1,
      interest: 0,
      pix: null,
      card: null,
    })
    // The sandbox serves a printable boleto, as Asaas and Mercado Pago do.
    expect(res.body.boleto.pdf_url).toMatch(/\/sandbox\/boletos\/[\w-]+\.pdf$/)
    expect(res.body.boleto.digitable_line).toMatch(/^\d{47}$/)
    expect((await pay(svc.api, res.body.charge_id)).body.callback_status).toBe(200)
    expect((await svc.api('GET', `/api/orders/${res.body.order_id}/status`)).body.status).toBe(
      'paid',
    )
  })

  it("a declined card is 402 Cartão recusado with the gateway's reason", async () => {
    const product = await createProduct(svc.api, key, { payment_methods: ['card'] })
    const res = await checkout(svc.api, product.id, {
      payment_method: 'card',
      card_token: 'tok_declined',
    })
    expect(res.status).toBe(402)
    expect(res.body.error).toBe('Cartão recusado')
    expect(res.body.details).toEqual([{ path: 'card', message: expect.any(String) }])
    expect(res.body.details[0].message.length).toBeGreaterThan(3)
  })
})
