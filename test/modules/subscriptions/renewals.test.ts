// The renewal worker driven pass by pass: the service runs as ROLE=api (no background work) and
// the test calls the worker's steps itself, so crashes, repeats and races happen exactly where
// the test puts them.
import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Deps } from '../../../src/deps.ts'
import { withTx } from '../../../src/kit/db.ts'
import { lockOrder } from '../../../src/modules/orders/service.ts'
import { parseDigitableLine } from '../../../src/modules/payments/boleto.ts'
import { parsePixCopyPaste } from '../../../src/modules/payments/brcode.ts'
import { lockChargeOfOrder } from '../../../src/modules/payments/charges.ts'
import { confirmPayment } from '../../../src/modules/payments/confirm.ts'
import {
  chargeRenewal,
  issueDueRenewals,
  runDueRenewals,
} from '../../../src/modules/subscriptions/renewals.ts'
import { blockedOnALock } from '../../setup/database.ts'
import { createProduct, pay } from '../../setup/purchase.ts'
import { engine, eventually, startTestService, type TestService } from '../../setup/service.ts'
import {
  DAY,
  subscriptionEvents as eventsOf,
  GRACE_DAYS,
  NOTICE_DAYS,
  openShop,
  type Shop,
  SUBSCRIPTION_ENV,
  type Subscription,
  ordersOf as subscriptionOrders,
} from './fixtures.ts'

let svc: TestService
let shop: Shop
let key: string
let product: { id: string }
let writeOnlyKey: string
beforeAll(async () => {
  svc = await startTestService({ ROLE: 'api', ...SUBSCRIPTION_ENV })
  shop = await openShop(svc, { name: 'Clube do Vinho', price: 59.9 })
  key = shop.key
  product = shop.product
  // Made now: the creator's session (30 days) ends long before the clock stops moving.
  writeOnlyKey = await shop.creator.key(['write:subscriptions'])
})
afterAll(() => svc?.stop())

const pass = (deps: Deps = svc.deps) => runDueRenewals(deps)

/** Moves the shared clock forward to `at` (never backwards). */
async function advanceTo(at: number) {
  const diff = at - svc.deps.clock.now().getTime()
  if (diff > 0) await svc.deps.clock.advance(diff)
}

const subscribe = (overrides: Record<string, unknown>) => shop.subscribe(overrides)
const subscription = (id: string) => shop.subscription(id)
const ordersOf = (subscriptionId: string) => subscriptionOrders(svc, subscriptionId)
const subscriptionEvents = (subscriptionId: string) => eventsOf(svc, subscriptionId)

const sandboxChargesOf = (orderId: string) =>
  svc.deps.db.selectFrom('sandbox_charges').selectAll().where('reference', '=', orderId).execute()

const chargesOf = (orderId: string) =>
  svc.deps.db.selectFrom('charges').selectAll().where('order_id', '=', orderId).execute()

const mailsTo = (to: string) =>
  svc.deps.db
    .selectFrom('emails')
    .selectAll()
    .where('to_address', '=', to)
    .orderBy('created_at')
    .execute()

/** A gateway that charges, then "crashes" before the worker can record the answer. */
function crashingAfterCharge(email: string): Deps {
  const gateway = svc.deps.gateway
  return {
    ...svc.deps,
    gateway: {
      ...gateway,
      async createCharge(input) {
        const charge = await gateway.createCharge(input)
        if (input.buyer.email === email) throw new Error('worker died after the gateway charged')
        return charge
      },
    },
  }
}

describe(`renewal worker (${engine})`, () => {
  it('card: a crash after the gateway charged and two workers at once still charge the card once', async () => {
    const { sub, email } = await subscribe({
      email: 'queda@example.com',
      payment_method: 'card',
      card_token: 'tok_approved',
    })
    await advanceTo(Date.parse(sub.current_period_end) + 60_000)

    await pass(crashingAfterCharge(email))
    const [, renewal] = await ordersOf(sub.id)
    expect(renewal!.status).toBe('pending')
    expect(await chargesOf(renewal!.id)).toHaveLength(0)
    expect(await sandboxChargesOf(renewal!.id)).toMatchObject([{ status: 'paid' }])

    // Within the order's charge lease nobody touches it, however many workers pass.
    await Promise.all([pass(), pass()])
    expect((await ordersOf(sub.id)).map((o) => o.status)).toEqual(['paid', 'pending'])

    await svc.deps.clock.advance(61_000)
    await Promise.all([pass(), pass()])
    expect((await ordersOf(sub.id)).map((o) => o.status)).toEqual(['paid', 'paid'])
    expect(await sandboxChargesOf(renewal!.id)).toHaveLength(1)
    expect(await chargesOf(renewal!.id)).toMatchObject([{ status: 'paid' }])
    const sales = await svc.deps.db
      .selectFrom('ledger_postings')
      .select('id')
      .where('order_id', '=', renewal!.id)
      .where('kind', '=', 'sale')
      .execute()
    expect(sales).toHaveLength(1)
    const renewed = await subscription(sub.id)
    expect(renewed).toMatchObject({
      status: 'active',
      current_period_start: sub.current_period_end,
    })

    // And again: nothing more is charged until the next period ends.
    await Promise.all([pass(), pass()])
    expect(await ordersOf(sub.id)).toHaveLength(2)
  })

  it('card: canceled after the renewal was issued but before it was charged, the card is not charged', async () => {
    const { sub } = await subscribe({
      email: 'desistiu@example.com',
      payment_method: 'card',
      card_token: 'tok_approved',
    })
    await advanceTo(Date.parse(sub.current_period_end) + 60_000)
    const { toCharge: issued } = await issueDueRenewals(svc.deps)
    const [, renewal] = await ordersOf(sub.id)
    expect(issued).toContain(renewal!.id)

    const res = await svc.api('POST', `/api/v1/subscriptions/${sub.id}/cancel`, {
      key,
      body: { immediately: true },
    })
    expect(res.body.data).toMatchObject({ status: 'canceled', cancel_reason: 'canceled' })
    for (const orderId of issued) await chargeRenewal(svc.deps, orderId)

    expect(await sandboxChargesOf(renewal!.id)).toEqual([])
    expect((await ordersOf(sub.id)).map((o) => o.status)).toEqual(['paid', 'expired'])
  })

  it('card: canceled while the gateway was charging, the charge is voided at the gateway and nothing renews', async () => {
    const { sub, email } = await subscribe({
      email: 'durante@example.com',
      payment_method: 'card',
      card_token: 'tok_approved',
    })
    await advanceTo(Date.parse(sub.current_period_end) + 60_000)
    const gateway = svc.deps.gateway
    const cancelingMidCharge: Deps = {
      ...svc.deps,
      gateway: {
        ...gateway,
        async createCharge(input) {
          if (input.buyer.email === email) {
            const res = await svc.api('POST', `/api/v1/subscriptions/${sub.id}/cancel`, {
              key,
              body: { immediately: true },
            })
            expect(res.status).toBe(200)
          }
          return gateway.createCharge(input)
        },
      },
    }
    await pass(cancelingMidCharge)

    const [, renewal] = await ordersOf(sub.id)
    expect(renewal!.status).toBe('expired')
    expect(await sandboxChargesOf(renewal!.id)).toMatchObject([{ status: 'canceled' }])
    expect(await subscription(sub.id)).toMatchObject({ status: 'canceled' })
  })

  it('PIX: the renewal e-mail arrives before the due date with a valid copy-and-paste code; paid late while past due, the next period starts where the last ended', async () => {
    const { sub, email } = await subscribe({ email: 'pix-atrasado@example.com' })
    const end = Date.parse(sub.current_period_end)
    await advanceTo(end - NOTICE_DAYS * DAY + 60_000)
    await pass()
    const [, renewal] = await ordersOf(sub.id)
    const [charge] = await chargesOf(renewal!.id)
    const mail = (await mailsTo(email)).find((m) =>
      m.subject.startsWith('Renovação da sua assinatura'),
    )!
    expect(mail.created_at.getTime()).toBeLessThan(end)
    const code = mail.text_body.split('\n').find((line) => line.startsWith('000201'))!
    expect(code).toBe(charge!.pix_copy_paste)
    const pix = parsePixCopyPaste(code)
    expect(pix.crcValid).toBe(true)
    expect(pix.fields['54']).toBe('59.90')
    expect(mail.html_body).toContain(code)
    // Payable until the grace period ends, not only the usual 30 minutes of a checkout PIX.
    expect(charge!.pix_expires_at!.getTime()).toBe(end + GRACE_DAYS * DAY)

    await advanceTo(end + 60_000)
    await pass()
    const pastDue = await subscription(sub.id)
    expect(pastDue.status).toBe('past_due')
    expect(pastDue.past_due_since).not.toBeNull()
    expect((await mailsTo(email)).map((m) => m.subject)).toContain(
      'Pagamento pendente: Clube do Vinho',
    )

    await advanceTo(end + 2 * DAY)
    expect((await pay(svc.api, charge!.gateway_charge_id)).body.callback_status).toBe(200)
    const renewed = await subscription(sub.id)
    expect(renewed).toMatchObject({
      status: 'active',
      past_due_since: null,
      current_period_start: sub.current_period_end,
    })
    const next = new Date(end)
    next.setUTCMonth(next.getUTCMonth() + 1)
    expect(renewed.current_period_end).toBe(next.toISOString())
    const events = await subscriptionEvents(sub.id)
    expect(events.map((e) => e.type)).toEqual([
      'subscription.created',
      'subscription.past_due',
      'subscription.renewed',
    ])
    const ids = {
      subscription_id: sub.id,
      product_id: product.id,
      plan_id: sub.plan_id,
      buyer_id: sub.buyer_id,
    }
    expect(events[0]!.data).toEqual({
      ...ids,
      order_id: sub.first_order_id,
      current_period_end: sub.current_period_end,
    })
    expect(events[1]!.data).toEqual({ ...ids, order_id: renewal!.id })
    expect(events[2]!.data).toEqual({
      ...ids,
      order_id: renewal!.id,
      current_period_end: renewed.current_period_end,
    })

    // The grace period of the old period no longer applies: nothing ends at its old date.
    await advanceTo(end + GRACE_DAYS * DAY + 60_000)
    await pass()
    expect((await subscription(sub.id)).status).toBe('active')
  })

  it('boleto: a valid digitable line of the renewal amount, due on or after the day it is sent; unpaid, the grace period end cancels and the member loses access', async () => {
    const { sub, email } = await subscribe({
      email: 'boleto-vence@example.com',
      payment_method: 'boleto',
    })
    const end = Date.parse(sub.current_period_end)
    await advanceTo(end - NOTICE_DAYS * DAY + 60_000)
    await pass()
    const mail = (await mailsTo(email)).find((m) =>
      m.subject.startsWith('Renovação da sua assinatura'),
    )!
    expect(mail.created_at.getTime()).toBeLessThan(end)
    const line = mail.text_body.split('\n').find((l) => /^\d{47}$/.test(l))!
    const boleto = parseDigitableLine(line)
    expect(boleto.valid).toBe(true)
    expect(Number(boleto.barcode.slice(9, 19))).toBe(5990)
    const due = /vence em (\d{2})\/(\d{2})\/(\d{4})/.exec(mail.text_body)!
    const dueDay = Date.UTC(Number(due[3]), Number(due[2]) - 1, Number(due[1]))
    expect(dueDay).toBeGreaterThanOrEqual(mail.created_at.getTime() - DAY)

    await advanceTo(end + 60_000)
    await pass()
    expect((await subscription(sub.id)).status).toBe('past_due')
    const member = async () =>
      (await svc.api('GET', `/api/v1/members/${sub.buyer_id}`, { key })).body.data as {
        access: { id: string; status: string; order_id: string; revoked_at: string | null }[]
      }
    expect((await member()).access).toMatchObject([{ status: 'active' }])

    await advanceTo(end + GRACE_DAYS * DAY - 60_000)
    await pass()
    expect((await subscription(sub.id)).status).toBe('past_due')
    await advanceTo(end + GRACE_DAYS * DAY)
    await pass()
    expect(await subscription(sub.id)).toMatchObject({
      status: 'canceled',
      cancel_reason: 'unpaid',
    })
    const [access] = (await member()).access
    expect(access).toMatchObject({ status: 'revoked', order_id: sub.first_order_id })
    expect(access!.revoked_at).not.toBeNull()
    const revoked = (
      await svc.deps.db
        .selectFrom('events')
        .select('data')
        .where('type', '=', 'access.revoked')
        .execute()
    ).map((e) => e.data)
    expect(revoked).toContainEqual({
      access_id: access!.id,
      buyer_id: sub.buyer_id,
      product_id: product.id,
      order_id: sub.first_order_id,
      reason: 'subscription_canceled',
    })
    const events = await subscriptionEvents(sub.id)
    expect(events.at(-1)).toEqual({
      type: 'subscription.canceled',
      data: {
        subscription_id: sub.id,
        product_id: product.id,
        plan_id: sub.plan_id,
        buyer_id: sub.buyer_id,
        reason: 'unpaid',
      },
    })
    expect((await ordersOf(sub.id)).map((o) => o.status)).toEqual(['paid', 'expired'])
  })

  it('a renewal paid at the very instant its grace period ends does not deadlock with the worker (lock order charge → order → subscription)', async () => {
    const { sub } = await subscribe({ email: 'no-limite@example.com' })
    const end = Date.parse(sub.current_period_end)
    await advanceTo(end - NOTICE_DAYS * DAY + 60_000)
    await pass()
    await advanceTo(end + 60_000)
    await pass()
    expect((await subscription(sub.id)).status).toBe('past_due')
    const [, renewal] = await ordersOf(sub.id)
    await advanceTo(end + GRACE_DAYS * DAY)

    // A gateway callback paying the renewal, caught between its first locks (charge, order)
    // and the subscription's, while the worker comes to end the subscription.
    let worker: Promise<number> | undefined
    await withTx(svc.deps.db, async (tx) => {
      await lockChargeOfOrder(tx, renewal!.id)
      await lockOrder(tx, renewal!.id)
      worker = pass()
      // PostgreSQL: the worker must be waiting for the charge's lock before the payment goes on.
      // PGlite: it queues for the one connection behind this transaction, whatever it does.
      if (engine === 'postgres') await eventually(() => blockedOnALock(tx))
      expect(await confirmPayment(tx, svc.deps, renewal!.id)).toBe(true)
    })
    await worker
    await pass()

    // The payment got its locks first, so it wins: renewed, not canceled.
    expect(await subscription(sub.id)).toMatchObject({
      status: 'active',
      current_period_start: sub.current_period_end,
    })
    expect((await ordersOf(sub.id)).map((o) => o.status)).toEqual(['paid', 'paid'])
  })
})

describe(`creator API (${engine})`, () => {
  it('lists newest first with status and product filters, page/limit/has_more and starting_after; reads need read:subscriptions', async () => {
    const other = await createProduct(svc.api, key, {
      name: 'Clube do Queijo',
      billing: 'recurring',
      plans: [{ name: 'Anual', price: 300, interval: 'year' }],
    })
    const made: string[] = []
    for (const n of [1, 2, 3]) {
      const { sub } = await shop.subscribe({ email: `queijo-${n}@example.com` }, other.id)
      expect(sub).toMatchObject({ product_id: other.id, amount: 300 })
      made.unshift(sub.id) // newest first
    }
    const list = (query: string) => svc.api('GET', `/api/v1/subscriptions?${query}`, { key })

    const all = await list(`product_id=${other.id}`)
    expect(all.status).toBe(200)
    expect(all.body).toMatchObject({ page: 1, limit: 50, has_more: false })
    expect(all.body.data.map((s: Subscription) => s.id)).toEqual(made)

    const first = await list(`product_id=${other.id}&limit=2`)
    expect(first.body.data.map((s: Subscription) => s.id)).toEqual(made.slice(0, 2))
    expect(first.body.has_more).toBe(true)
    const second = await list(`product_id=${other.id}&limit=2&page=2`)
    expect(second.body).toMatchObject({ page: 2, limit: 2, has_more: false })
    expect(second.body.data.map((s: Subscription) => s.id)).toEqual(made.slice(2))
    const after = await list(`product_id=${other.id}&limit=2&starting_after=${made[1]}`)
    expect(after.body.data.map((s: Subscription) => s.id)).toEqual(made.slice(2))

    const cancel = await svc.api('POST', `/api/v1/subscriptions/${made[0]}/cancel`, {
      key,
      body: { immediately: true },
    })
    expect(cancel.status).toBe(200)
    const canceled = await list(`product_id=${other.id}&status=canceled`)
    expect(canceled.body.data.map((s: Subscription) => s.id)).toEqual([made[0]])
    const active = await list(`product_id=${other.id}&status=active`)
    expect(active.body.data.map((s: Subscription) => s.id)).toEqual(made.slice(1))
    expect((await list('status=paused')).status).toBe(400)
    expect((await list('limit=101')).status).toBe(400)

    for (const path of ['/api/v1/subscriptions', `/api/v1/subscriptions/${made[1]}`]) {
      const denied = await svc.api('GET', path, { key: writeOnlyKey })
      expect(denied.status).toBe(403)
      expect(denied.body).toEqual({ error: 'Missing scope: read:subscriptions' })
      expect((await svc.api('GET', path)).status).toBe(401)
    }
    const unknown = await svc.api('GET', `/api/v1/subscriptions/${randomUUID()}`, { key })
    expect(unknown.status).toBe(404)
    expect(unknown.body).toEqual({ error: 'Assinatura não encontrada' })
  })

  it('PIX canceled at the period end after its renewal was issued: the renewal expires, paying it later changes nothing, access lasts to the period end', async () => {
    const { sub } = await subscribe({ email: 'pix-cancela@example.com' })
    const end = Date.parse(sub.current_period_end)
    await advanceTo(end - NOTICE_DAYS * DAY + 60_000)
    await pass()
    const [, renewal] = await ordersOf(sub.id)
    const [charge] = await chargesOf(renewal!.id)

    const res = await svc.api('POST', `/api/v1/subscriptions/${sub.id}/cancel`, { key })
    expect(res.status).toBe(200)
    expect(res.body.data).toMatchObject({ status: 'active', cancel_at_period_end: true })
    expect((await ordersOf(sub.id)).map((o) => o.status)).toEqual(['paid', 'expired'])
    // The buyer pays the PIX that was mailed anyway: the order stays expired, no renewal.
    expect((await pay(svc.api, charge!.gateway_charge_id)).body.callback_status).toBe(200)
    expect(await subscription(sub.id)).toMatchObject({
      status: 'active',
      current_period_end: sub.current_period_end,
    })
    const member = async () =>
      (await svc.api('GET', `/api/v1/members/${sub.buyer_id}`, { key })).body.data.access[0]
    expect(await member()).toMatchObject({ status: 'active' })

    await advanceTo(end - 60_000)
    await pass()
    expect((await subscription(sub.id)).status).toBe('active')
    await advanceTo(end)
    await pass()
    expect(await subscription(sub.id)).toMatchObject({
      status: 'canceled',
      cancel_reason: 'canceled',
    })
    expect(await member()).toMatchObject({ status: 'revoked' })
    expect((await ordersOf(sub.id)).map((o) => o.status)).toEqual(['paid', 'expired'])
  })

  it('a past-due subscription is canceled at once even without `immediately`; a second cancel is 409', async () => {
    const { sub } = await subscribe({
      email: 'atrasada-cancela@example.com',
      payment_method: 'card',
      card_token: 'tok_fails_later',
    })
    await advanceTo(Date.parse(sub.current_period_end) + 60_000)
    await pass()
    expect((await subscription(sub.id)).status).toBe('past_due')

    const res = await svc.api('POST', `/api/v1/subscriptions/${sub.id}/cancel`, { key })
    expect(res.status).toBe(200)
    expect(res.body.data).toMatchObject({ status: 'canceled', cancel_reason: 'canceled' })
    expect(res.body.data.canceled_at).not.toBeNull()
    const again = await svc.api('POST', `/api/v1/subscriptions/${sub.id}/cancel`, {
      key,
      body: { immediately: true },
    })
    expect(again.status).toBe(409)
    // Nothing is retried for it any more.
    await svc.deps.clock.advance(2 * DAY)
    await pass()
    expect((await ordersOf(sub.id)).map((o) => o.status)).toEqual(['paid', 'failed'])
  })
})
