// A buyer is never charged without an order (SPEC §5): the order is written first, then the
// gateway charges it, and anything that goes wrong after the charge voids it at the gateway.
// The service runs as ROLE=api (no background work): reconciliation passes run when the test
// calls them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { signupCreator } from '../setup/actors.ts'
import { checkout, createProduct } from '../setup/purchase.ts'
import { engine, startTestService, type TestService } from '../setup/service.ts'

let svc: TestService
let key: string
beforeAll(async () => {
  svc = await startTestService({ ROLE: 'api' })
  key = await (await signupCreator(svc.api)).key(['write:products', 'read:orders'])
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
    const results = await withGatewayLatency(200, () =>
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
})
