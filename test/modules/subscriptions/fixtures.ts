// What the subscription tests share: a creator with a monthly product, subscribing through the
// hosted checkout and the sandbox, and reads of what a subscription left behind.
import { expect } from 'vitest'
import { type Creator, signupCreator } from '../../setup/actors.ts'
import { checkout, createProduct, pay } from '../../setup/purchase.ts'
import { eventually, type TestService } from '../../setup/service.ts'

export const DAY = 86_400_000
export const NOTICE_DAYS = 2
export const GRACE_DAYS = 3
export const SUBSCRIPTION_ENV = {
  SUBSCRIPTION_RENEWAL_NOTICE: `${NOTICE_DAYS}d`,
  SUBSCRIPTION_GRACE_PERIOD: `${GRACE_DAYS}d`,
}

export interface Subscription {
  id: string
  status: string
  product_id: string
  plan_id: string
  buyer_id: string
  current_period_start: string
  current_period_end: string
  cancel_at_period_end: boolean
  past_due_since: string | null
  cancel_reason: string | null
  first_order_id: string
  amount: number
}

export interface Shop {
  creator: Creator
  /** Every scope the subscription tests need. */
  key: string
  product: { id: string; name: string }
  /** Subscribes through checkout (paying a PIX or boleto in the sandbox) and waits for it. */
  subscribe(
    overrides: Record<string, unknown>,
    productId?: string,
  ): Promise<{ sub: Subscription; orderId: string; email: string }>
  subscription(id: string): Promise<Subscription>
}

export async function openShop(
  svc: TestService,
  product: { name: string; price: number },
): Promise<Shop> {
  const creator = await signupCreator(svc.api)
  const key = await creator.key([
    'write:products',
    'read:orders',
    'read:members',
    'read:subscriptions',
    'write:subscriptions',
    'refunds:create',
  ])
  const created = await createProduct(svc.api, key, {
    name: product.name,
    billing: 'recurring',
    plans: [{ name: 'Mensal', price: product.price, interval: 'month' }],
  })
  const subscription = async (id: string) =>
    (await svc.api('GET', `/api/v1/subscriptions/${id}`, { key })).body.data as Subscription
  return {
    creator,
    key,
    product: created,
    subscription,
    async subscribe(overrides, productId = created.id) {
      const res = await checkout(svc.api, productId, overrides)
      expect(res.status).toBe(201)
      if (res.body.status === 'pending')
        expect((await pay(svc.api, res.body.charge_id)).body.callback_status).toBe(200)
      const sub = await eventually(async () => {
        const order = (await svc.api('GET', `/api/v1/orders/${res.body.order_id}`, { key })).body
          .data
        return order.subscription_id ? subscription(order.subscription_id) : null
      })
      return { sub, orderId: res.body.order_id as string, email: overrides.email as string }
    },
  }
}

/** The subscription's orders, oldest first. */
export const ordersOf = (svc: TestService, subscriptionId: string) =>
  svc.deps.db
    .selectFrom('orders')
    .select(['id', 'status'])
    .where('subscription_id', '=', subscriptionId)
    .orderBy('created_at')
    .orderBy('id')
    .execute()

/** The `subscription.*` events of one subscription, oldest first. */
export async function subscriptionEvents(svc: TestService, subscriptionId: string) {
  const rows = await svc.deps.db
    .selectFrom('events')
    .select(['type', 'data'])
    .orderBy('created_at')
    .orderBy('id')
    .execute()
  return rows
    .filter(
      (e) =>
        e.type.startsWith('subscription.') &&
        (e.data as { subscription_id?: string }).subscription_id === subscriptionId,
    )
    .map((e) => ({ type: e.type, data: e.data as Record<string, unknown> }))
}
