// Known refusals (GatewayRefused): the gateway answered that it did nothing, and why. Such an
// answer is never asked again in a loop and never a 500. Also the looks' other hard cases: an
// unknown answer at expiry (the order is never expired unasked) and a charge paid with another
// amount (never confirmed, canceled at expiry). The service runs as ROLE=api (no
// background work); the test drives the workers with the real sandbox gateway, whose answer it
// replaces by a refusal for one buyer (everything else — database, HTTP — is the real one).
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Deps } from '../../../src/deps.ts'
import { GatewayRefused, type PaymentGateway } from '../../../src/modules/payments/gateway.ts'
import { runExpiry } from '../../../src/modules/payments/jobs.ts'
import { dropCharge } from '../../../src/modules/payments/order-charge.ts'
import { runReconciliation } from '../../../src/modules/payments/reconcile.ts'
import { runDueRenewals } from '../../../src/modules/subscriptions/renewals.ts'
import { checkout } from '../../setup/purchase.ts'
import { engine, startTestService, type TestService } from '../../setup/service.ts'
import {
  DAY,
  openShop,
  type Shop,
  SUBSCRIPTION_ENV,
  ordersOf as subscriptionOrders,
} from '../subscriptions/fixtures.ts'

let svc: TestService
let shop: Shop
let oneTimeId: string
beforeAll(async () => {
  svc = await startTestService({ ROLE: 'api', PIX_EXPIRES_AFTER: '30m', ...SUBSCRIPTION_ENV })
  shop = await openShop(svc, { name: 'Horta em Casa', price: 39.9 })
  oneTimeId = (
    await svc.api('POST', '/api/v1/products', {
      key: shop.key,
      body: {
        name: 'Guia da Horta',
        slug: `guia-horta-${Date.now()}`,
        billing: 'one_time',
        plans: [{ name: 'Único', price: 19.9 }],
      },
    })
  ).body.data.id
})
afterAll(() => svc?.stop())

const REASON = 'O CPF informado não é aceito pelo gateway'

/**
 * The real gateway, except that `calls` refuse (GatewayRefused) for one order or buyer, or
 * with `unknown`, lose their answer (a plain error, as a time-out is).
 */
function refusing(
  calls: ('createCharge' | 'getCharge' | 'cancelCharge')[],
  who: { email?: string; orderId?: string },
  unknown = false,
): Deps {
  const real = svc.deps.gateway
  const refuse = () => {
    if (unknown) throw new Error('gateway time-out')
    throw new GatewayRefused(REASON, 'input')
  }
  const gateway: PaymentGateway = {
    ...real,
    readCallback: (request) => real.readCallback(request),
    async createCharge(input) {
      if (calls.includes('createCharge') && input.buyer.email === who.email) refuse()
      return real.createCharge(input)
    },
    async getCharge(reference) {
      if (calls.includes('getCharge') && reference === who.orderId) refuse()
      return real.getCharge(reference)
    },
    async cancelCharge(ref) {
      if (calls.includes('cancelCharge') && ref.reference === who.orderId) refuse()
      return real.cancelCharge(ref)
    },
  }
  return { ...svc.deps, gateway }
}

const advance = (ms: number) => svc.deps.clock.advance(ms)
const checkOf = (id: string) =>
  svc.deps.db
    .selectFrom('gateway_checks')
    .select(['status', 'note'])
    .where('id', '=', id)
    .executeTakeFirstOrThrow()
const orderStatus = async (id: string) =>
  (
    await svc.deps.db
      .selectFrom('orders')
      .select('status')
      .where('id', '=', id)
      .executeTakeFirstOrThrow()
  ).status

describe(`gateway refusals (${engine})`, () => {
  it('a renewal charge the gateway refuses fails like a declined card: past due, tried again the next day, not in a loop', async () => {
    const email = 'renovacao-recusada@example.com'
    const { sub } = await shop.subscribe({
      email,
      payment_method: 'card',
      card_token: 'tok_approved',
    })
    await advance(Date.parse(sub.current_period_end) + 60_000 - svc.deps.clock.now().getTime())
    const deps = refusing(['createCharge'], { email })
    await runDueRenewals(deps)
    expect((await subscriptionOrders(svc, sub.id)).map((o) => o.status)).toEqual(['paid', 'failed'])
    expect(await shop.subscription(sub.id)).toMatchObject({ status: 'past_due' })
    // Nothing is due again before the next day.
    expect(await runDueRenewals(deps)).toBe(0)
    await advance(61_000)
    expect(await runDueRenewals(deps)).toBe(0)
    // The next day the gateway takes the saved card again: renewed.
    await advance(DAY)
    await runDueRenewals(svc.deps)
    expect((await subscriptionOrders(svc, sub.id)).map((o) => o.status)).toEqual([
      'paid',
      'failed',
      'paid',
    ])
    expect(await shop.subscription(sub.id)).toMatchObject({ status: 'active' })
  })

  it('a look-up the gateway refuses settles its check with the reason; the order then expires at its time, once', async () => {
    const res = await checkout(svc.api, oneTimeId)
    expect(res.status).toBe(201)
    const orderId = res.body.order_id as string
    const deps = refusing(['getCharge'], { orderId })
    await advance(5 * 60_000 + 1_000)
    await runReconciliation(deps)
    expect(await checkOf(orderId)).toEqual({
      status: 'settled',
      note: `refused by the gateway: ${REASON}`,
    })
    expect(await orderStatus(orderId)).toBe('pending')
    await advance(26 * 60_000)
    await runExpiry(deps)
    expect(await orderStatus(orderId)).toBe('expired')
    expect(await runExpiry(deps)).toBe(0)
  })

  it('a cancel the gateway refuses at expiry is not asked again: the order expires on the next pass', async () => {
    const res = await checkout(svc.api, oneTimeId)
    const orderId = res.body.order_id as string
    const deps = refusing(['cancelCharge'], { orderId })
    await advance(31 * 60_000)
    await runExpiry(deps)
    expect(await checkOf(orderId)).toEqual({
      status: 'settled',
      note: `refused by the gateway: ${REASON}`,
    })
    await runExpiry(deps)
    expect(await orderStatus(orderId)).toBe('expired')
    expect(await runExpiry(deps)).toBe(0)
  })

  it('a dropped charge whose cancel is refused settles its check with the reason (no retries)', async () => {
    const res = await checkout(svc.api, oneTimeId)
    const orderId = res.body.order_id as string
    const deps = refusing(['cancelCharge'], { orderId })
    const canceled = await dropCharge(deps, {
      reference: orderId,
      gatewayChargeId: res.body.charge_id,
    })
    expect(canceled).toBe(false)
    expect(await checkOf(orderId)).toEqual({
      status: 'settled',
      note: `cancel refused by the gateway: ${REASON}`,
    })
  })

  it('a look-up whose answer is unknown at expiry: the order waits past its expiry, asked again after a backoff, never expired unasked', async () => {
    const res = await checkout(svc.api, oneTimeId)
    const orderId = res.body.order_id as string
    const chargeId = res.body.charge_id as string
    const silent = refusing(['getCharge'], { orderId }, true)
    await advance(31 * 60_000)
    await runExpiry(silent)
    expect(await orderStatus(orderId)).toBe('pending')
    // Backing off: the next passes leave it alone (no loop on an unreachable gateway).
    expect(await runExpiry(silent)).toBe(0)
    expect(await orderStatus(orderId)).toBe('pending')
    // Paid meanwhile (its callback lost too); the gateway answers again after the backoff.
    expect((await svc.api('POST', `/sandbox/charges/${chargeId}/pay?notify=false`)).status).toBe(
      200,
    )
    await advance(60 * 60_000)
    await runExpiry(svc.deps)
    expect(await orderStatus(orderId)).toBe('paid')
  })

  it('a charge the gateway holds paid with another amount is never confirmed: looked at again, canceled at expiry', async () => {
    const res = await checkout(svc.api, oneTimeId)
    const orderId = res.body.order_id as string
    const real = svc.deps.gateway
    const deps: Deps = {
      ...svc.deps,
      gateway: {
        ...real,
        readCallback: (request) => real.readCallback(request),
        async getCharge(reference) {
          const found = await real.getCharge(reference)
          if (reference !== orderId || !found) return found
          return { ...found, status: 'paid', amountCents: found.amountCents - 1 }
        },
      },
    }
    await advance(5 * 60_000 + 1_000)
    await runReconciliation(deps)
    await advance(10 * 60_000)
    await runReconciliation(deps)
    expect(await orderStatus(orderId)).toBe('pending')
    expect(await checkOf(orderId)).toMatchObject({ status: 'pending' })
    await advance(20 * 60_000)
    await runExpiry(deps)
    expect(await orderStatus(orderId)).toBe('expired')
    const atGateway = await svc.deps.db
      .selectFrom('sandbox_charges')
      .select('status')
      .where('reference', '=', orderId)
      .executeTakeFirstOrThrow()
    expect(atGateway.status).toBe('canceled')
  })
})
