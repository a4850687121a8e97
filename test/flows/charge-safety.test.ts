// A buyer is never charged without an order (SPEC §5): a card's or boleto's order is written
// first, then the gateway charges it; a PIX, which moves no money until paid, is issued first
// and written with its order. Anything that goes wrong after the charge voids it at the gateway.
// The service runs as ROLE=api (no background work): reconciliation passes run when the test
// calls them.
import { type RawBuilder, sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { INVALID_COUPON } from '../../src/modules/catalog/coupons.ts'
import { CHARGE_CANCELED, PAYMENT_UNKNOWN } from '../../src/modules/checkout/service.ts'
import { CHECK_GRACE_MS } from '../../src/modules/payments/checks.ts'
import { runReconciliation } from '../../src/modules/payments/reconcile.ts'
import { signupCreator } from '../setup/actors.ts'
import { paidSale } from '../setup/ledger.ts'
import {
  ADMIN,
  adminSession,
  balanceOf,
  review,
  verifiedPixKey,
  withdraw,
} from '../setup/payouts.ts'
import { checkout, createProduct, orderByEmail, VALID_CPF } from '../setup/purchase.ts'
import { engine, type Session, startTestService, type TestService } from '../setup/service.ts'

let svc: TestService
let key: string
let admin: Session
beforeAll(async () => {
  svc = await startTestService({ ROLE: 'api', ...ADMIN })
  key = await (await signupCreator(svc.api)).key(['write:products', 'read:orders'])
  admin = await adminSession(svc.api)
})
afterAll(() => svc?.stop())

/** A monthly product (cards allowed) of `price` with a coupon usable `uses` times. */
async function productWithCoupon(price: number, code: string, uses: number) {
  const product = await createProduct(svc.api, key, {
    billing: 'recurring',
    plans: [{ name: 'Mensal', price }],
  })
  const res = await svc.api('POST', `/api/v1/products/${product.id}/coupons`, {
    key,
    body: { code, percent_off: 10, max_redemptions: uses },
  })
  expect(res.status).toBe(201)
  return product.id as string
}

/**
 * A real gateway takes a while to charge a card; the sandbox answers at once, and PGlite runs
 * on the service's own thread, so without this the first buyer would finish before the others
 * even reached the service.
 */
async function withGatewayLatency<T>(ms: number, run: () => Promise<T>): Promise<T> {
  const gateway = svc.deps.gateway
  const createCharge = gateway.createCharge
  gateway.createCharge = async (input) => {
    await new Promise((resolve) => setTimeout(resolve, ms))
    return createCharge(input)
  }
  try {
    return await run()
  } finally {
    gateway.createCharge = createCharge
  }
}

const sandboxCharges = (amountCents: number) =>
  svc.deps.db
    .selectFrom('sandbox_charges')
    .select(['reference', 'status'])
    .where('amount_cents', '=', amountCents)
    .execute()

const ordersOf = (productId: string) =>
  svc.deps.db
    .selectFrom('orders')
    .select(['id', 'status'])
    .where('product_id', '=', productId)
    .execute()

const orderOf = (email: string) => orderByEmail(svc, email)

const gatewayCharge = (orderId: string) =>
  svc.deps.db
    .selectFrom('sandbox_charges')
    .select(['id', 'status'])
    .where('reference', '=', orderId)
    .executeTakeFirst()

const recordedCharges = (orderId: string) =>
  svc.deps.db.selectFrom('charges').select('status').where('order_id', '=', orderId).execute()

const check = (id: string) =>
  svc.deps.db
    .selectFrom('gateway_checks')
    .select(['status', 'note'])
    .where('id', '=', id)
    .executeTakeFirstOrThrow()

/** Past the time a request may still be talking to the gateway, then one reconciliation pass. */
async function reconcileLater(ms = CHECK_GRACE_MS + 1_000) {
  await svc.deps.clock.advance(ms)
  return runReconciliation(svc.deps)
}

/**
 * Runs `run` with a row trigger on `table` whose PL/pgSQL `body` runs before `RETURN NEW`
 * (values in it spelt with `sql.lit`): a real database error, or another buyer's write, at
 * the moment the test needs it. Dropped afterwards, whatever happened.
 */
async function withTrigger(
  name: string,
  on: { table: string; when: 'BEFORE INSERT' | 'AFTER INSERT' },
  body: RawBuilder<unknown>,
  run: () => Promise<void>,
) {
  const db = svc.deps.db
  const fn = sql.raw(name)
  await sql`CREATE FUNCTION ${fn}() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN ${body} RETURN NEW; END $$`.execute(db)
  await sql`CREATE TRIGGER ${fn} ${sql.raw(on.when)} ON ${sql.raw(on.table)}
    FOR EACH ROW EXECUTE FUNCTION ${fn}()`.execute(db)
  try {
    await run()
  } finally {
    await sql`DROP TRIGGER ${fn} ON ${sql.raw(on.table)}`.execute(db)
    await sql`DROP FUNCTION ${fn}()`.execute(db)
  }
}

const redemptions = async (productId: string) =>
  (
    await svc.deps.db
      .selectFrom('coupons')
      .select('redemptions')
      .where('product_id', '=', productId)
      .executeTakeFirstOrThrow()
  ).redemptions

describe(`order first, then the charge (${engine})`, () => {
  it('12 buyers race for a single-use coupon by card: one is charged and paid, 11 are refused before any charge', async () => {
    const productId = await productWithCoupon(111.1, 'SOUM', 1)
    const results = await withGatewayLatency(500, () =>
      Promise.all(
        Array.from({ length: 12 }, () =>
          checkout(svc.api, productId, {
            payment_method: 'card',
            card_token: 'tok_approved',
            coupon_code: 'SOUM',
          }),
        ),
      ),
    )
    const created = results.filter((r) => r.status === 201)
    expect(created).toHaveLength(1)
    expect(created[0]!.body.status).toBe('paid')
    const refused = results.filter((r) => r.status !== 201)
    expect(refused).toHaveLength(11)
    for (const r of refused)
      expect(r).toMatchObject({ status: 400, body: { error: 'Cupom inválido' } })

    const approved = (await sandboxCharges(9999)).filter((c) => c.status === 'paid')
    const paid = (await ordersOf(productId)).filter((o) => o.status === 'paid')
    expect(approved).toHaveLength(1)
    expect(paid).toHaveLength(1)
    expect(approved[0]!.reference).toBe(paid[0]!.id)
    expect(await redemptions(productId)).toBe(1)
  })

  it('our side fails after the charge (a real database error): the charge is voided, the order failed, the coupon back', async () => {
    const productId = await productWithCoupon(222.2, 'FALHA', 1)
    const email = 'tx2-falha@example.com'
    const refuse = sql`IF (SELECT buyer_email FROM orders WHERE id = NEW.order_id) =
      ${sql.lit(email)} THEN RAISE EXCEPTION 'disk full'; END IF;`
    await withTrigger(
      'refuse_charge',
      { table: 'charges', when: 'BEFORE INSERT' },
      refuse,
      async () => {
        const res = await checkout(svc.api, productId, {
          email,
          payment_method: 'card',
          card_token: 'tok_approved',
          coupon_code: 'FALHA',
        })
        expect(res).toMatchObject({ status: 503, body: { error: CHARGE_CANCELED } })
        const order = await orderOf(email)
        expect(order.status).toBe('failed')
        expect(await gatewayCharge(order.id)).toMatchObject({ status: 'canceled' })
        expect(await redemptions(productId)).toBe(0)
        expect(await check(order.id)).toMatchObject({ status: 'settled' })
      },
    )
    const next = await checkout(svc.api, productId, {
      payment_method: 'card',
      card_token: 'tok_approved',
      coupon_code: 'FALHA',
    })
    expect(next).toMatchObject({ status: 201, body: { status: 'paid' } })
  })
})

// A PIX is issued first and written with its order in one statement: issuing it moves no money,
// and nobody can pay it before the checkout answers with its code.
describe(`a PIX: the charge first, then the order with it (${engine})`, () => {
  it('writes the order, its charge and its check in one statement, the check due at the first look', async () => {
    const productId = (await createProduct(svc.api, key, { plans: [{ name: 'P', price: 31.4 }] }))
      .id
    const res = await checkout(svc.api, productId, { email: 'pix-primeiro@example.com' })
    expect(res).toMatchObject({ status: 201, body: { status: 'pending' } })
    const order = await orderOf('pix-primeiro@example.com')
    expect(await recordedCharges(order.id)).toEqual([{ status: 'pending' }])
    expect(await gatewayCharge(order.id)).toMatchObject({
      id: res.body.charge_id,
      status: 'pending',
    })
    const { xmins } = await sql<{ xmins: number }>`
      SELECT count(DISTINCT xmin::text)::int AS xmins FROM (
        SELECT xmin FROM orders WHERE id = ${order.id}
        UNION ALL SELECT xmin FROM charges WHERE order_id = ${order.id}
        UNION ALL SELECT xmin FROM gateway_checks WHERE id = ${order.id}) AS rows`
      .execute(svc.deps.db)
      .then((r) => r.rows[0]!)
    expect(xmins).toBe(1)
    // Not the short grace an unknown answer gets: the first look at an unpaid PIX.
    const due = await svc.deps.db
      .selectFrom('gateway_checks')
      .select('next_attempt_at')
      .where('id', '=', order.id)
      .executeTakeFirstOrThrow()
    const dueAt = due.next_attempt_at.getTime()
    expect(dueAt).toBeLessThanOrEqual(new Date(res.body.pix.expires_at).getTime())
    expect(dueAt - svc.deps.clock.now().getTime()).toBeGreaterThan(CHECK_GRACE_MS)
  })

  it('an order that cannot be written after the gateway issued its PIX (a real database error): 503, no order, the charge canceled', async () => {
    const productId = (await createProduct(svc.api, key, { plans: [{ name: 'P', price: 33.3 }] }))
      .id
    const email = 'falhou-depois@example.com'
    const refuse = sql`IF NEW.buyer_email = ${sql.lit(email)} THEN RAISE EXCEPTION 'disk full'; END IF;`
    await withTrigger(
      'refuse_order',
      { table: 'orders', when: 'BEFORE INSERT' },
      refuse,
      async () => {
        const res = await checkout(svc.api, productId, { email })
        expect(res).toMatchObject({ status: 503, body: { error: CHARGE_CANCELED } })
        expect(await ordersOf(productId)).toEqual([])
        expect(await sandboxCharges(3330)).toEqual([
          { reference: expect.any(String), status: 'canceled' },
        ])
      },
    )
  })

  it('a coupon used up while the gateway issued the PIX: the buyer reads why, the charge is canceled, no order', async () => {
    const productId = await productWithCoupon(44.4, 'ULTIMO', 1)
    // Another buyer takes the last use between the PIX's issue and its order's write.
    const takeLastUse = sql`UPDATE coupons SET redemptions = max_redemptions WHERE code = 'ULTIMO';`
    const on = { table: 'sandbox_charges', when: 'AFTER INSERT' } as const
    await withTrigger('take_last_use', on, takeLastUse, async () => {
      const res = await checkout(svc.api, productId, { coupon_code: 'ULTIMO' })
      expect(res).toMatchObject({ status: 400, body: { error: INVALID_COUPON } })
      expect(await ordersOf(productId)).toEqual([])
      expect(await sandboxCharges(3996)).toEqual([
        { reference: expect.any(String), status: 'canceled' },
      ])
    })
  })
})

describe(`reconciliation: answers that never came (${engine})`, () => {
  it('a card charged at the gateway whose answer was lost: 502, then one pass records it and the order is paid', async () => {
    const productId = await productWithCoupon(50, 'PERDIDA', 5)
    const email = 'resposta@instavel.example'
    const res = await checkout(svc.api, productId, {
      email,
      payment_method: 'card',
      card_token: 'tok_approved',
    })
    expect(res).toMatchObject({ status: 502, body: { error: PAYMENT_UNKNOWN } })
    const order = await orderOf(email)
    expect(order.status).toBe('pending')
    expect(await recordedCharges(order.id)).toEqual([])
    expect(await gatewayCharge(order.id)).toMatchObject({ status: 'paid' })

    // Within the grace period the request may still record it: the worker leaves it alone.
    expect(await runReconciliation(svc.deps)).toBe(0)
    expect(await reconcileLater()).toBeGreaterThanOrEqual(1)
    expect(await orderOf(email)).toMatchObject({ status: 'paid' })
    expect(await recordedCharges(order.id)).toEqual([{ status: 'paid' }])
    expect(await check(order.id)).toMatchObject({ status: 'settled' })
    const access = await svc.deps.db
      .selectFrom('access_grants')
      .select('status')
      .where('order_id', '=', order.id)
      .execute()
    expect(access).toEqual([{ status: 'active' }])
  })

  it('the same request again after a 502 hears the 502 again, never a second charge', async () => {
    const productId = await productWithCoupon(47, 'REPETIDA', 5)
    const email = 'repete@instavel.example'
    // What an SDK does after a 5xx, and the hosted page after an answer it could not read.
    const send = () =>
      svc.api('POST', '/api/checkout/create', {
        headers: { 'idempotency-key': 'compra-incerta-1' },
        body: {
          product_id: productId,
          name: 'Beatriz Compradora',
          email,
          cpf: VALID_CPF,
          phone: '(11) 98765-4321',
          payment_method: 'card',
          card_token: 'tok_approved',
        },
      })
    const first = await send()
    expect(first).toMatchObject({ status: 502, body: { error: PAYMENT_UNKNOWN } })
    const again = await send()
    expect(again).toMatchObject({ status: 502, body: { error: PAYMENT_UNKNOWN } })
    expect(again.headers.get('idempotent-replayed')).toBe('true')
    expect(await ordersOf(productId)).toHaveLength(1)
    expect(await sandboxCharges(4700)).toEqual([
      { reference: (await orderOf(email)).id, status: 'paid' },
    ])
  })

  it('a gateway never reached: the order fails and its coupon goes back; a second look later finds nothing either', async () => {
    const productId = await productWithCoupon(60, 'NUNCA', 1)
    const email = 'fora@inalcancavel.example'
    const res = await checkout(svc.api, productId, { email, coupon_code: 'NUNCA' })
    expect(res).toMatchObject({ status: 502, body: { error: PAYMENT_UNKNOWN } })
    const order = await orderOf(email)
    expect(await redemptions(productId)).toBe(1)

    await reconcileLater()
    expect(await orderOf(email)).toMatchObject({ status: 'failed' })
    expect(await redemptions(productId)).toBe(0)
    expect(await gatewayCharge(order.id)).toBeUndefined()
    expect(await check(order.id)).toMatchObject({ status: 'pending' })

    await reconcileLater(3_600_000)
    expect(await check(order.id)).toMatchObject({
      status: 'settled',
      note: 'no charge at the gateway',
    })
  })

  it('a PIX transfer whose answer was lost is recorded paid without a second transfer', async () => {
    const creator = await signupCreator(svc.api)
    await paidSale(svc, creator, { price: 70 })
    await verifiedPixKey(svc.api, admin, creator, {
      pix_key: 'saque@instavel.example',
      pix_key_type: 'email',
    })
    const id = (await withdraw(svc.api, creator, 70)).body.withdrawal_id
    await review(svc.api, admin, id, 'approve')
    expect((await review(svc.api, admin, id, 'pay')).status).toBe(502)

    await reconcileLater()
    const list = await svc.api('GET', '/api/admin/withdrawals?status=paid', { session: admin })
    expect(list.body.data.map((w: { id: string }) => w.id)).toContain(id)
    const transfers = await svc.deps.db
      .selectFrom('sandbox_transfers')
      .select('id')
      .where('reference', '=', id)
      .execute()
    expect(transfers).toHaveLength(1)
    expect(await balanceOf(svc.api, creator)).toMatchObject({ available: 0, withdrawn_total: 70 })
  })
})
