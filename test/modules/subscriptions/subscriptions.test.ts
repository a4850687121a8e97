import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { signupCreator } from '../../setup/actors.ts'
import { pay } from '../../setup/purchase.ts'
import { engine, eventually, startTestService, type TestService } from '../../setup/service.ts'
import {
  DAY,
  GRACE_DAYS,
  NOTICE_DAYS,
  openShop,
  type Shop,
  SUBSCRIPTION_ENV,
  type Subscription,
  subscriptionEvents,
  ordersOf as subscriptionOrders,
} from './fixtures.ts'

let svc: TestService
let shop: Shop
let key: string
let readOnlyKey: string
beforeAll(async () => {
  svc = await startTestService(SUBSCRIPTION_ENV)
  shop = await openShop(svc, { name: 'Clube do Livro', price: 39.9 })
  key = shop.key
  // Made now: the creator's session (30 days) ends long before the clock stops moving.
  readOnlyKey = await shop.creator.key(['read:subscriptions'])
})
afterAll(() => svc?.stop())

/** Moves the shared clock to `at` (never backwards) and returns the new now. */
async function advanceTo(at: number) {
  const now = Date.parse(
    (await svc.api('POST', '/sandbox/clock/advance', { body: { seconds: 1 } })).body.now,
  )
  if (at > now) {
    await svc.api('POST', '/sandbox/clock/advance', {
      body: { seconds: Math.ceil((at - now) / 1000) },
    })
  }
}

const subscribe = (overrides: Record<string, unknown>) => shop.subscribe(overrides)
const subscription = (id: string) => shop.subscription(id)
const ordersOf = (subscriptionId: string) => subscriptionOrders(svc, subscriptionId)
const eventsOf = async (subscriptionId: string) =>
  (await subscriptionEvents(svc, subscriptionId)).map((e) => e.type)

const accessOf = async (email: string) => {
  const members = (await svc.api('GET', '/api/v1/members?limit=100', { key })).body.data as {
    email: string
    access: { status: string; order_id: string }[]
  }[]
  return members.find((m) => m.email === email)?.access ?? []
}

const mails = async (to: string) =>
  (await svc.api('GET', `/api/dev/emails?to=${to}`)).body.data as {
    subject: string
    text: string
  }[]

describe(`subscriptions (${engine})`, () => {
  it('the first card payment creates it; at the period end the saved card is charged and the same access goes on', async () => {
    const { sub, orderId, email } = await subscribe({
      email: 'cartao@example.com',
      payment_method: 'card',
      card_token: 'tok_approved',
    })
    expect(sub).toMatchObject({ status: 'active', first_order_id: orderId, amount: 39.9 })
    const start = Date.parse(sub.current_period_start)
    const end = Date.parse(sub.current_period_end)
    expect(end - start).toBeGreaterThanOrEqual(28 * DAY)
    expect(end - start).toBeLessThanOrEqual(31 * DAY)

    await advanceTo(end + 60_000)
    const renewed = await eventually(async () => {
      const s = await subscription(sub.id)
      return s.current_period_start === sub.current_period_end ? s : null
    })
    expect(renewed.status).toBe('active')
    const orders = await ordersOf(sub.id)
    expect(orders.map((o) => o.status)).toEqual(['paid', 'paid'])
    expect(orders[0]!.id).toBe(orderId)
    const access = await accessOf(email)
    expect(access).toHaveLength(1)
    expect(access[0]).toMatchObject({ status: 'active', order_id: orderId })
    expect(await eventsOf(sub.id)).toEqual(['subscription.created', 'subscription.renewed'])
  })

  it('a card that fails on renewal: past due, retried daily, canceled after the grace period with access revoked', async () => {
    const { sub, email } = await subscribe({
      email: 'recusa@example.com',
      payment_method: 'card',
      card_token: 'tok_fails_later',
    })
    const end = Date.parse(sub.current_period_end)
    await advanceTo(end + 60_000)
    await eventually(async () => (await subscription(sub.id)).status === 'past_due')
    expect((await ordersOf(sub.id)).map((o) => o.status)).toEqual(['paid', 'failed'])
    const pastDue = await eventually(async () =>
      (await mails(email)).find((m) => m.subject === 'Pagamento pendente: Clube do Livro'),
    )
    expect(pastDue.text).toContain('Não conseguimos cobrar a renovação no seu cartão')

    await advanceTo(end + DAY + 120_000)
    await eventually(async () => (await ordersOf(sub.id)).length === 3)
    expect((await subscription(sub.id)).status).toBe('past_due')

    await advanceTo(end + GRACE_DAYS * DAY + 180_000)
    const canceled = await eventually(async () => {
      const s = await subscription(sub.id)
      return s.status === 'canceled' ? s : null
    })
    expect(canceled.cancel_reason).toBe('unpaid')
    expect((await accessOf(email))[0]!.status).toBe('revoked')
    const revoked = await svc.deps.db
      .selectFrom('events')
      .select('data')
      .where('type', '=', 'access.revoked')
      .execute()
    expect(
      revoked.some(
        (e) =>
          (e.data as { order_id: string; reason: string }).order_id === sub.first_order_id &&
          (e.data as { reason: string }).reason === 'subscription_canceled',
      ),
    ).toBe(true)
    expect(await eventsOf(sub.id)).toEqual([
      'subscription.created',
      'subscription.past_due',
      'subscription.canceled',
    ])
    expect(
      (await mails(email)).some((m) => m.subject === 'Assinatura cancelada: Clube do Livro'),
    ).toBe(true)
  })

  it('PIX: the renewal charge is e-mailed ahead of the period end and paid through the sandbox', async () => {
    const { sub, email } = await subscribe({ email: 'pix@example.com', payment_method: 'pix' })
    const end = Date.parse(sub.current_period_end)
    await advanceTo(end - NOTICE_DAYS * DAY + 60_000)
    const mail = await eventually(async () =>
      (await mails(email)).find((m) => m.subject === 'Renovação da sua assinatura: Clube do Livro'),
    )
    expect(mail.text).toContain('R$ 39,90')
    const renewal = (await ordersOf(sub.id))[1]!
    expect(renewal.status).toBe('pending')
    const charge = await svc.deps.db
      .selectFrom('charges')
      .select(['gateway_charge_id', 'pix_copy_paste'])
      .where('order_id', '=', renewal.id)
      .executeTakeFirstOrThrow()
    expect(mail.text).toContain(charge.pix_copy_paste!)

    expect((await pay(svc.api, charge.gateway_charge_id)).body.callback_status).toBe(200)
    const renewed = await subscription(sub.id)
    expect(renewed).toMatchObject({
      status: 'active',
      current_period_start: sub.current_period_end,
    })
    expect((await ordersOf(sub.id)).map((o) => o.status)).toEqual(['paid', 'paid'])
  })

  it('boleto left unpaid: past due at the period end, canceled after the grace period, its renewal expired', async () => {
    const { sub, email } = await subscribe({
      email: 'boleto@example.com',
      payment_method: 'boleto',
    })
    const end = Date.parse(sub.current_period_end)
    await advanceTo(end - NOTICE_DAYS * DAY + 60_000)
    const mail = await eventually(async () =>
      (await mails(email)).find((m) => m.subject === 'Renovação da sua assinatura: Clube do Livro'),
    )
    expect(mail.text).toMatch(/linha digitável.*\n\d{47}/)

    await advanceTo(end + 60_000)
    await eventually(async () => (await subscription(sub.id)).status === 'past_due')
    await advanceTo(end + GRACE_DAYS * DAY + 120_000)
    await eventually(async () => (await subscription(sub.id)).status === 'canceled')
    expect((await ordersOf(sub.id)).map((o) => o.status)).toEqual(['paid', 'expired'])
    expect((await accessOf(email))[0]!.status).toBe('revoked')
  })

  it('the creator cancels at the period end (access kept until then) or at once; scopes and other accounts', async () => {
    const later = await subscribe({
      email: 'fim@example.com',
      payment_method: 'card',
      card_token: 'tok_approved',
    })
    const now = await subscribe({
      email: 'agora@example.com',
      payment_method: 'card',
      card_token: 'tok_approved',
    })

    const denied = await svc.api('POST', `/api/v1/subscriptions/${later.sub.id}/cancel`, {
      key: readOnlyKey,
    })
    expect(denied.status).toBe(403)
    expect(denied.body).toEqual({ error: 'Missing scope: write:subscriptions' })
    const other = await (await signupCreator(svc.api)).key([
      'read:subscriptions',
      'write:subscriptions',
    ])
    expect(
      (await svc.api('GET', `/api/v1/subscriptions/${later.sub.id}`, { key: other })).status,
    ).toBe(404)
    expect(
      (await svc.api('POST', `/api/v1/subscriptions/${later.sub.id}/cancel`, { key: other }))
        .status,
    ).toBe(404)
    const othersList = await svc.api('GET', '/api/v1/subscriptions', { key: other })
    expect(othersList.body.data).toEqual([])

    const marked = await svc.api('POST', `/api/v1/subscriptions/${later.sub.id}/cancel`, { key })
    expect(marked.status).toBe(200)
    expect(marked.body.data).toMatchObject({ status: 'active', cancel_at_period_end: true })
    expect((await accessOf(later.email))[0]!.status).toBe('active')

    const immediate = await svc.api('POST', `/api/v1/subscriptions/${now.sub.id}/cancel`, {
      key,
      body: { immediately: true },
    })
    expect(immediate.body.data).toMatchObject({ status: 'canceled', cancel_reason: 'canceled' })
    expect((await accessOf(now.email))[0]!.status).toBe('revoked')
    const again = await svc.api('POST', `/api/v1/subscriptions/${now.sub.id}/cancel`, { key })
    expect(again.status).toBe(409)
    expect(again.body).toEqual({ error: 'Esta assinatura já foi cancelada' })

    await advanceTo(Date.parse(later.sub.current_period_end) + 60_000)
    await eventually(async () => (await subscription(later.sub.id)).status === 'canceled')
    expect((await ordersOf(later.sub.id)).map((o) => o.status)).toEqual(['paid'])
    expect((await accessOf(later.email))[0]!.status).toBe('revoked')

    const canceledList = await svc.api('GET', '/api/v1/subscriptions?status=canceled', { key })
    const ids = canceledList.body.data.map((s: Subscription) => s.id)
    expect(ids).toEqual(expect.arrayContaining([later.sub.id, now.sub.id]))
    expect(canceledList.body.data.every((s: Subscription) => s.status === 'canceled')).toBe(true)
  })

  it('a refunded payment ends the subscription at once: access revoked, nothing charged again', async () => {
    const { sub, orderId, email } = await subscribe({
      email: 'reembolso@example.com',
      payment_method: 'card',
      card_token: 'tok_approved',
    })
    const refund = await svc.api('POST', `/api/v1/orders/${orderId}/refund`, {
      key,
      body: { reason: 'Desisti da assinatura' },
    })
    expect(refund.status).toBe(201)
    const ended = await eventually(async () => {
      const s = await subscription(sub.id)
      return s.status === 'canceled' ? s : null
    })
    expect(ended.cancel_reason).toBe('refunded')
    expect((await accessOf(email))[0]!.status).toBe('revoked')

    await advanceTo(Date.parse(sub.current_period_end) + 60_000)
    await svc.workers!.runOnce('subscriptions.renew')
    expect((await ordersOf(sub.id)).map((o) => o.status)).toEqual(['refunded'])
  })
})
