// Concurrency decided in the database: a refund and a withdrawal of the same money, many
// withdrawals against one refund, duplicate refund requests and duplicate chargebacks. On
// PostgreSQL these really run at once (a pool of connections); PGlite serializes them.
import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { withTx } from '../../src/kit/db.ts'
import { type Holder, holdWithdrawal, lockAvailable } from '../../src/modules/ledger/service.ts'
import { type Creator, signupCreator } from '../setup/actors.ts'
import {
  expectBooksExact,
  holdNow,
  ledgerTotals,
  paidSale,
  slowCreatorBalance,
} from '../setup/ledger.ts'
import { checkout, createProduct, pay } from '../setup/purchase.ts'
import { engine, eventually, startTestService, type TestService } from '../setup/service.ts'

let svc: TestService
let creator: Creator
let key: string
let productId: string
let holder: Holder
beforeAll(async () => {
  svc = await startTestService()
  creator = await signupCreator(svc.api)
  key = await creator.key(['write:products', 'refunds:create', 'read:refunds', 'read:payouts'])
  productId = (await createProduct(svc.api, key, { plans: [{ name: 'U', price: 100 }] })).id
  holder = { kind: 'creator', accountId: creator.accountId }
})
afterAll(() => svc?.stop())

const available = () => withTx(svc.deps.db, (tx) => lockAvailable(tx, holder))
const hold = (amountCents: number) => holdNow(svc, holder, amountCents)
const requestRefund = (orderId: string) =>
  svc.api('POST', `/api/v1/orders/${orderId}/refund`, { key, body: { reason: 'Corrida' } })

/** A fresh sale, with everything else of the account withdrawn: exactly R$ 100,00 available. */
async function onlyThisSale() {
  const { orderId, chargeId } = await paidSale(svc, creator, { key, productId })
  const extra = (await available()) - 10_000
  if (extra > 0) expect(await hold(extra)).toBe('held')
  expect(await available()).toBe(10_000)
  return { orderId, chargeId }
}

describe(`money races (${engine})`, () => {
  it('a refund racing a withdrawal of the same money: exactly one wins, never both', async () => {
    for (let round = 0; round < 6; round++) {
      const { orderId } = await onlyThisSale()
      const [refund, withdrawal] = await Promise.all([requestRefund(orderId), hold(10_000)])
      const outcomes = [refund.status === 201 ? 'refund' : refund.body.error, withdrawal]
      expect(outcomes.sort()).toSatisfy(
        (o: string[]) =>
          (o[0] === 'Saldo insuficiente' && o[1] === 'refund') ||
          (o[0] === 'Saldo insuficiente para reembolsar este pedido' && o[1] === 'held'),
      )
      expect(await available()).toBe(0)
    }
    const slow = await slowCreatorBalance(svc.deps.db, creator.accountId)
    expect(slow.available).toBe(0)
    expect(await ledgerTotals(svc.deps.db)).toEqual({ total: 0, worstPosting: 0 })
  })

  it('ten withdrawals and a refund at once never spend more than there is', async () => {
    const { orderId } = await onlyThisSale()
    const [refund, ...holds] = await Promise.all([
      requestRefund(orderId),
      ...Array.from({ length: 10 }, () => hold(3000)),
    ])
    const held = holds.filter((h) => h === 'held').length
    expect(holds.every((h) => h === 'held' || h === 'Saldo insuficiente')).toBe(true)
    const spent = held * 3000 + (refund.status === 201 ? 10_000 : 0)
    expect(spent).toBeLessThanOrEqual(10_000)
    expect(held).toBe(refund.status === 201 ? 0 : 3)
    expect(await available()).toBe(10_000 - spent)
  })

  it('twenty identical refund requests at once: one 201, the rest 409', async () => {
    const { orderId } = await onlyThisSale()
    const results = await Promise.all(Array.from({ length: 20 }, () => requestRefund(orderId)))
    expect(results.filter((r) => r.status === 201)).toHaveLength(1)
    for (const r of results.filter((r) => r.status !== 201)) {
      expect(r.status).toBe(409)
      expect(r.body).toEqual({ error: 'Refund already requested' })
    }
    const id = results.find((r) => r.status === 201)!.body.data.id
    await eventually(async () => {
      const r = await svc.api('GET', `/api/v1/refunds/${id}`, { key })
      return r.body.data.status === 'completed'
    })
    const postings = await svc.deps.db
      .selectFrom('ledger_postings')
      .select('kind')
      .where('refund_id', '=', id)
      .execute()
    expect(postings.map((p) => p.kind).sort()).toEqual(['refund_paid', 'refund_reserved'])
  })

  it('twenty chargeback callbacks at once reverse the sale once', async () => {
    const { orderId, chargeId } = await onlyThisSale()
    const before = await slowCreatorBalance(svc.deps.db, creator.accountId)
    const results = await Promise.all(
      Array.from({ length: 20 }, () => svc.api('POST', `/sandbox/charges/${chargeId}/chargeback`)),
    )
    expect(results.every((r) => r.body.callback_status === 200)).toBe(true)
    const postings = await svc.deps.db
      .selectFrom('ledger_postings')
      .select('kind')
      .where('order_id', '=', orderId)
      .execute()
    expect(postings.map((p) => p.kind).sort()).toEqual(['chargeback', 'sale'])
    const after = await slowCreatorBalance(svc.deps.db, creator.accountId)
    expect(after.refunded_total - before.refunded_total).toBe(10_000)
    expect(await available()).toBe(0)
    expect(await ledgerTotals(svc.deps.db)).toEqual({ total: 0, worstPosting: 0 })
  })

  it('a storm of payments, refunds, chargebacks and holder withdrawals across two accounts: no deadlock, books exact', async () => {
    const tag = randomUUID().slice(0, 8)
    const sellers = await Promise.all([signupCreator(svc.api), signupCreator(svc.api)])
    const setups = await Promise.all(
      sellers.map(async (seller) => {
        const k = await seller.key(['write:products', 'refunds:create'])
        const p = await createProduct(svc.api, k, { plans: [{ name: 'U', price: 80 }] })
        const aff = await svc.api('POST', `/api/v1/products/${p.id}/affiliates`, {
          key: k,
          body: { email: `storm-a-${tag}@example.com`, commission_percent: 20 },
        })
        const cop = await svc.api('POST', `/api/v1/products/${p.id}/coproducers`, {
          key: k,
          body: { email: `storm-k-${tag}@example.com`, split_percent: 50 },
        })
        return { seller, key: k, productId: p.id, code: aff.body.data.code, aff, cop }
      }),
    )
    const affiliate: Holder = { kind: 'affiliate', userId: setups[0]!.aff.body.data.user_id }
    const coproducer: Holder = { kind: 'coproducer', userId: setups[0]!.cop.body.data.user_id }
    const sell = async (s: (typeof setups)[number]) => {
      const c = await checkout(svc.api, s.productId, { affiliate_code: s.code })
      return { ...s, orderId: c.body.order_id as string, chargeId: c.body.charge_id as string }
    }
    // Some paid before the storm (to refund and charge back during it), some paid during it.
    const early = await Promise.all([0, 1, 0, 1, 0, 1].map((i) => sell(setups[i]!)))
    for (const o of early) await pay(svc.api, o.chargeId)
    const late = await Promise.all([0, 1, 0, 1, 0, 1].map((i) => sell(setups[i]!)))
    const holderHold = (h: Holder, cents: number) =>
      withTx(svc.deps.db, async (tx) => {
        await lockAvailable(tx, h)
        await holdWithdrawal(tx, svc.deps, {
          holder: h,
          withdrawalId: randomUUID(),
          amountCents: cents,
        })
      }).catch((error: Error) => {
        if (error.message !== 'Saldo insuficiente') throw error
      })
    const storm = await Promise.allSettled([
      ...late.map((o) => pay(svc.api, o.chargeId)),
      ...early.slice(0, 3).map((o) =>
        svc.api('POST', `/api/v1/orders/${o.orderId}/refund`, {
          key: o.key,
          body: { reason: 'x' },
        }),
      ),
      ...early.slice(3).map((o) => svc.api('POST', `/sandbox/charges/${o.chargeId}/chargeback`)),
      ...Array.from({ length: 4 }, () => holderHold(affiliate, 1600)),
      ...Array.from({ length: 4 }, () => holderHold(coproducer, 3200)),
    ])
    expect(storm.filter((r) => r.status === 'rejected')).toEqual([])
    for (const r of storm) {
      const value = (r as PromiseFulfilledResult<{ status?: number; body?: any } | undefined>).value
      if (value?.status !== undefined) expect(value.status).toBeLessThan(500)
      if (value?.body?.callback_status !== undefined) expect(value.body.callback_status).toBe(200)
    }
    await eventually(async () => {
      const pending = await svc.deps.db
        .selectFrom('refunds')
        .select('id')
        .where('status', '=', 'pending')
        .execute()
      return pending.length === 0
    })
    await expectBooksExact(svc.deps.db, {
      accounts: setups.map((s) => s.seller.accountId),
      affiliates: [affiliate.userId],
      coproducers: [coproducer.userId],
    })
  })
})
