// A card subscription through the Asaas adapter (issue 11): the first charge keeps Asaas' card
// token, and the renewal charges that token with the buyer's IP from the first order, as Asaas
// asks (`remoteIp` is the buyer's, never our server's). Over HTTP both ways, both databases.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type FakeAsaas, startFakeAsaas } from '../fakes/asaas.ts'
import { signupCreator } from '../setup/actors.ts'
import { asaasEnv } from '../setup/gateway-env.ts'
import { checkout, createProduct } from '../setup/purchase.ts'
import { engine, eventually, startTestService, type TestService } from '../setup/service.ts'

const TOKEN = 'asaas-webhook-token-renewals'
const DAY = 86_400_000

let fake: FakeAsaas
let svc: TestService
let productId: string
beforeAll(async () => {
  fake = await startFakeAsaas({ webhook: { retryDelayMs: 20 } })
  svc = await startTestService({
    PAYMENT_GATEWAY: 'asaas',
    ...asaasEnv(fake, TOKEN),
  })
  fake.webhooks.setTarget(`${svc.url}/api/payments/callback/asaas`, TOKEN)
  const creator = await signupCreator(svc.api)
  const key = await creator.key(['write:products'])
  productId = (
    await createProduct(svc.api, key, {
      billing: 'recurring',
      plans: [{ name: 'Mensal', price: 49.9, interval: 'month' }],
    })
  ).id
})
afterAll(async () => {
  await svc?.stop()
  await fake?.close()
})

describe(`Asaas: card subscriptions (${engine})`, () => {
  it("the renewal charges the saved card with the first order's buyer IP", async () => {
    const first = await checkout(svc.api, productId, {
      payment_method: 'card',
      card: {
        holder_name: 'BEATRIZ C',
        number: '4111111111111111',
        expiry_month: '12',
        expiry_year: '2035',
        cvv: '123',
      },
      postal_code: '01310-100',
      address_number: '1000',
    })
    expect(first.status).toBe(201)
    expect(first.body.status).toBe('paid')
    const sub = await svc.deps.db
      .selectFrom('subscriptions')
      .select(['id', 'current_period_end', 'card_reference'])
      .where('first_order_id', '=', first.body.order_id)
      .executeTakeFirstOrThrow()
    expect(sub.card_reference).toBeTruthy()
    const firstSent = fake.requests.filter((r) => r.method === 'POST' && r.path === '/payments')
    const buyerIp = (firstSent.at(-1)!.body as { remoteIp: string }).remoteIp
    expect(buyerIp).toMatch(/^[\d.:a-f]+$/)

    const now = svc.deps.clock.now().getTime()
    await svc.deps.clock.advance(new Date(sub.current_period_end).getTime() - now + DAY)
    await eventually(async () => {
      await svc.workers!.runOnce('subscriptions.renew')
      const orders = await svc.deps.db
        .selectFrom('orders')
        .select('status')
        .where('subscription_id', '=', sub.id)
        .execute()
      return orders.length === 2 && orders.every((o) => o.status === 'paid')
    })
    const renewalSent = fake.requests
      .filter((r) => r.method === 'POST' && r.path === '/payments')
      .at(-1)!.body as Record<string, unknown>
    expect(renewalSent).toMatchObject({ creditCardToken: sub.card_reference, remoteIp: buyerIp })
    expect(renewalSent).not.toHaveProperty('creditCard')
  })
})
