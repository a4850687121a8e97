// Chargebacks through the sandbox control (a signed gateway callback over HTTP), and what they
// do to balances that were already withdrawn. Workers poll hourly here, so a refund stays
// pending until the test runs it (processRefund), to race it with a chargeback.
import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { withTx } from '../../src/kit/db.ts'
import { type Holder, holdWithdrawal, lockAvailable } from '../../src/modules/ledger/service.ts'
import { processRefund } from '../../src/modules/refunds/jobs.ts'
import { type Creator, signupCreator } from '../setup/actors.ts'
import { expectBooksExact, ledgerTotals, paidSale } from '../setup/ledger.ts'
import { ADMIN, adminSession, review, verifiedPixKey, withdraw } from '../setup/payouts.ts'
import { checkout, createProduct, pay } from '../setup/purchase.ts'
import { engine, startTestService, type TestService } from '../setup/service.ts'

let svc: TestService
beforeAll(async () => {
  svc = await startTestService({ WORKER_POLL_MS: '1h', ...ADMIN })
})
afterAll(() => svc?.stop())

const SCOPES = ['write:products', 'read:orders', 'read:payouts', 'refunds:create', 'read:refunds']

async function seller() {
  const creator = await signupCreator(svc.api)
  return { creator, key: await creator.key(SCOPES) }
}
const balanceOf = (s: { creator: Creator; key: string }) =>
  svc.api('GET', '/api/balance', { key: s.key }).then((r) => r.body)
const chargeback = (chargeId: string) => svc.api('POST', `/sandbox/charges/${chargeId}/chargeback`)
const view = (table: 'affiliate_balance_view' | 'coproducer_balance_view', userId: string) =>
  svc.deps.db.selectFrom(table).selectAll().where('user_id', '=', userId).executeTakeFirstOrThrow()
const hold = (holder: Holder, amountCents: number) =>
  withTx(svc.deps.db, async (tx) => {
    await lockAvailable(tx, holder)
    await holdWithdrawal(tx, svc.deps, { holder, withdrawalId: randomUUID(), amountCents })
  })

describe(`chargebacks (${engine})`, () => {
  it('reverse a paid order like a refund: order chargeback, access revoked, every share back; once', async () => {
    const s = await seller()
    const product = await createProduct(svc.api, s.key, { plans: [{ name: 'U', price: 100 }] })
    const aff = await svc.api('POST', `/api/v1/products/${product.id}/affiliates`, {
      key: s.key,
      body: { email: `aff-${randomUUID()}@example.com`, commission_percent: 20 },
    })
    const cop = await svc.api('POST', `/api/v1/products/${product.id}/coproducers`, {
      key: s.key,
      body: { email: `cop-${randomUUID()}@example.com`, split_percent: 25 },
    })
    const created = await checkout(svc.api, product.id, { affiliate_code: aff.body.data.code })
    const orderId = created.body.order_id
    await pay(svc.api, created.body.charge_id)
    expect(await balanceOf(s)).toMatchObject({
      available: 60,
      affiliate_owed: 20,
      coproducer_owed: 20,
    })

    const res = await chargeback(created.body.charge_id)
    expect(res.body).toEqual({
      charge_id: created.body.charge_id,
      order_id: orderId,
      callback_status: 200,
    })
    expect((await chargeback(created.body.charge_id)).body.callback_status).toBe(200)

    const order = await svc.api('GET', `/api/v1/orders/${orderId}`, { key: s.key })
    expect(order.body.data.status).toBe('chargeback')
    const events = await svc.deps.db.selectFrom('events').select(['type', 'data']).execute()
    const mine = events.filter((e) => (e.data as { order_id?: string }).order_id === orderId)
    expect(mine.filter((e) => e.type === 'access.revoked').map((e) => e.data)).toEqual([
      expect.objectContaining({ reason: 'chargeback', product_id: product.id }),
    ])
    expect(mine.filter((e) => e.type === 'order.chargeback')).toHaveLength(1)
    expect(await balanceOf(s)).toEqual({
      available: 0,
      paid_total: 100,
      refunded_total: 100,
      withdrawn_total: 0,
      coproducer_owed: 0,
      affiliate_owed: 0,
    })
    expect(await view('affiliate_balance_view', aff.body.data.user_id)).toMatchObject({
      paid_total: 0,
      rejected_total: 2000,
    })
    expect(await view('coproducer_balance_view', cop.body.data.user_id)).toMatchObject({
      earned_total: 2000,
      refunded_total: 2000,
      available: 0,
    })
    const postings = await svc.deps.db
      .selectFrom('ledger_postings')
      .select('kind')
      .where('order_id', '=', orderId)
      .execute()
    expect(postings.map((p) => p.kind).sort()).toEqual(['chargeback', 'sale'])
    // A chargeback of an order that is not paid does nothing.
    const unpaid = await checkout(svc.api, product.id)
    await chargeback(unpaid.body.charge_id)
    const still = await svc.api('GET', `/api/orders/${unpaid.body.order_id}/status`)
    expect(still.body.status).toBe('pending')
  })

  it('after the creator withdrew: the balance goes negative, withdrawals stop, the next sales fill it', async () => {
    const s = await seller()
    const product = await createProduct(svc.api, s.key, { plans: [{ name: 'U', price: 100 }] })
    const first = await paidSale(svc, s.creator, { key: s.key, productId: product.id })
    const creator: Holder = { kind: 'creator', accountId: s.creator.accountId }
    await hold(creator, 10_000)
    await chargeback(first.chargeId)
    expect(await balanceOf(s)).toMatchObject({ available: -100, withdrawn_total: 100 })
    await paidSale(svc, s.creator, { key: s.key, productId: product.id })
    await expect(hold(creator, 2000)).rejects.toThrow('Saldo insuficiente')
    await paidSale(svc, s.creator, { key: s.key, productId: product.id })
    expect((await balanceOf(s)).available).toBe(100)
  })

  it('after a paid withdrawal: the negative balance shows in the API and on the dashboard', async () => {
    const s = await seller()
    const sale = await paidSale(svc, s.creator, { key: s.key, price: 100 })
    const admin = await adminSession(svc.api)
    await verifiedPixKey(svc.api, admin, s.creator)
    const { withdrawal_id: id } = (await withdraw(svc.api, s.creator, 100)).body
    expect((await review(svc.api, admin, id, 'approve')).status).toBe(200)
    expect((await review(svc.api, admin, id, 'pay')).body.data).toMatchObject({ status: 'paid' })
    expect((await chargeback(sale.chargeId)).body.callback_status).toBe(200)

    expect(await balanceOf(s)).toMatchObject({ available: -100, withdrawn_total: 100 })
    const page = await svc.api('GET', '/dashboard/saldo', { session: s.creator.session })
    expect(page.status).toBe(200)
    expect(page.body).toContain('<dt>Disponível para saque</dt><dd>-R$ 100,00</dd>')
  })

  it('after the affiliate withdrew: the affiliate owes it, not the creator; its next commission pays it back', async () => {
    const x = await seller()
    const y = await seller()
    const email = `aff-${randomUUID()}@example.com`
    const px = await createProduct(svc.api, x.key, { plans: [{ name: 'U', price: 100 }] })
    const py = await createProduct(svc.api, y.key, { plans: [{ name: 'U', price: 300 }] })
    const ax = await svc.api('POST', `/api/v1/products/${px.id}/affiliates`, {
      key: x.key,
      body: { email, commission_percent: 30 },
    })
    const ay = await svc.api('POST', `/api/v1/products/${py.id}/affiliates`, {
      key: y.key,
      body: { email, commission_percent: 10 },
    })
    const affiliate: Holder = { kind: 'affiliate', userId: ax.body.data.user_id }
    const sold = await checkout(svc.api, px.id, { affiliate_code: ax.body.data.code })
    await pay(svc.api, sold.body.charge_id)
    await hold(affiliate, 3000)
    await chargeback(sold.body.charge_id)
    expect(await view('affiliate_balance_view', affiliate.userId)).toMatchObject({
      available: -3000,
      withdrawn: 3000,
      rejected_total: 3000,
    })
    // X bore only its own part (70,00): the affiliate's 30,00 is the affiliate's debt.
    expect(await balanceOf(x)).toMatchObject({
      available: 0,
      refunded_total: 100,
      withdrawn_total: 30,
      affiliate_owed: -30,
    })
    await expect(hold(affiliate, 2000)).rejects.toThrow('Saldo insuficiente')

    const next = await checkout(svc.api, py.id, { affiliate_code: ay.body.data.code })
    await pay(svc.api, next.body.charge_id) // earns 30,00 in Y: the debt moves there
    expect(await view('affiliate_balance_view', affiliate.userId)).toMatchObject({
      available: 0,
      paid_total: 3000,
    })
    expect(await balanceOf(x)).toMatchObject({
      available: 0,
      withdrawn_total: 0,
      affiliate_owed: 0,
    })
    expect(await balanceOf(y)).toMatchObject({
      available: 270,
      withdrawn_total: 30,
      affiliate_owed: 0,
    })
    expect(await ledgerTotals(svc.deps.db)).toEqual({ total: 0, worstPosting: 0 })
  })

  it('while a refund is pending: the refund fails and its reserved money becomes the chargeback', async () => {
    const s = await seller()
    const { orderId, chargeId } = await paidSale(svc, s.creator, { key: s.key, price: 100 })
    const requested = await svc.api('POST', `/api/v1/orders/${orderId}/refund`, {
      key: s.key,
      body: { reason: 'Desistência' },
    })
    expect(await balanceOf(s)).toMatchObject({ available: 0, refunded_total: 100 })
    await chargeback(chargeId)
    await processRefund(svc.deps, requested.body.data.id) // no longer pending: nothing moves
    const r = await svc.api('GET', `/api/v1/refunds/${requested.body.data.id}`, { key: s.key })
    expect(r.body.data).toMatchObject({
      status: 'failed',
      failure_reason: 'O comprador contestou a compra no banco (chargeback)',
    })
    expect(await balanceOf(s)).toMatchObject({ available: 0, paid_total: 100, refunded_total: 100 })
    const order = await svc.api('GET', `/api/v1/orders/${orderId}`, { key: s.key })
    expect(order.body.data.status).toBe('chargeback')
    expect(await ledgerTotals(svc.deps.db)).toEqual({ total: 0, worstPosting: 0 })
  })

  it('a chargeback racing the completion of a refund: one of them wins, the books stay exact', async () => {
    const s = await seller()
    for (let round = 0; round < 5; round++) {
      const { orderId, chargeId } = await paidSale(svc, s.creator, { key: s.key, price: 50 })
      const requested = await svc.api('POST', `/api/v1/orders/${orderId}/refund`, {
        key: s.key,
        body: { reason: 'Corrida' },
      })
      const [, callback] = await Promise.all([
        processRefund(svc.deps, requested.body.data.id),
        chargeback(chargeId),
      ])
      expect(callback.body.callback_status).toBe(200)
      const order = await svc.api('GET', `/api/v1/orders/${orderId}`, { key: s.key })
      const refund = await svc.api('GET', `/api/v1/refunds/${requested.body.data.id}`, {
        key: s.key,
      })
      expect([order.body.data.status, refund.body.data.status]).toSatisfy(
        ([o, r]: string[]) =>
          (o === 'refunded' && r === 'completed') || (o === 'chargeback' && r === 'failed'),
      )
    }
    const b = await balanceOf(s)
    expect(b).toMatchObject({ paid_total: 250, refunded_total: 250, available: 0 })
    await expectBooksExact(svc.deps.db, {
      accounts: [s.creator.accountId],
      affiliates: [],
      coproducers: [],
    })
  })
})
