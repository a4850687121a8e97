import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { withTx } from '../../../src/kit/db.ts'
import { holdWithdrawal, lockAvailable } from '../../../src/modules/ledger/service.ts'
import { type Creator, signupCreator } from '../../setup/actors.ts'
import { ledgerTotals, paidSale } from '../../setup/ledger.ts'
import { checkout, createProduct, pay } from '../../setup/purchase.ts'
import { engine, eventually, startTestService, type TestService } from '../../setup/service.ts'

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
    'read:members',
    'read:payouts',
    'refunds:create',
    'read:refunds',
  ])
})
afterAll(() => svc?.stop())

const refund = (orderId: string, reason: unknown = 'Cliente desistiu', k = key) =>
  svc.api('POST', `/api/v1/orders/${orderId}/refund`, { key: k, body: { reason } })
const getRefund = (id: string) => svc.api('GET', `/api/v1/refunds/${id}`, { key })
const settled = (id: string) =>
  eventually(async () => {
    const res = await getRefund(id)
    return res.body.data.status !== 'pending' && res.body.data
  })
const balance = () => svc.api('GET', '/api/balance', { key }).then((r) => r.body)
const eventsOf = async (type: string, orderId: string) =>
  (
    await svc.deps.db
      .selectFrom('events')
      .select('data')
      .where('type', '=', type)
      .orderBy('created_at')
      .orderBy('id')
      .execute()
  )
    .map((e) => e.data as Record<string, unknown>)
    .filter((d) => d.order_id === orderId)

describe(`refunds: the seed's rules, word for word (${engine})`, () => {
  it('400 Order is not paid; 409 Refund already requested (checked first); reason 1–500 characters', async () => {
    const product = await createProduct(svc.api, key)
    const pending = await checkout(svc.api, product.id)
    const notPaid = await refund(pending.body.order_id)
    expect(notPaid.status).toBe(400)
    expect(notPaid.body).toEqual({ error: 'Order is not paid' })

    const { orderId } = await paidSale(svc, creator, { key, productId: product.id })
    for (const reason of ['', '   ', 'x'.repeat(501), 42]) {
      const bad = await refund(orderId, reason)
      expect(bad.status).toBe(400)
      expect(bad.body.error).toBe('Validation failed')
      if (typeof reason === 'string') {
        expect(bad.body.details[0].message).toBe(
          'Informe o motivo do reembolso (de 1 a 500 caracteres)',
        )
      }
    }
    const created = await refund(orderId, 'x'.repeat(500))
    expect(created.status).toBe(201)
    expect(created.body.data).toMatchObject({ status: 'pending', order_id: orderId, amount: 97.9 })
    expect(created.body.data.id).toMatch(/^[0-9a-f-]{36}$/)
    expect(new Date(created.body.data.created_at).toISOString()).toBe(created.body.data.created_at)

    const again = await refund(orderId)
    expect(again.status).toBe(409)
    expect(again.body).toEqual({ error: 'Refund already requested' })
    expect((await settled(created.body.data.id)).status).toBe('completed')
    // The order is refunded now (not paid): still 409, because that is checked first.
    const after = await refund(orderId)
    expect(after.status).toBe(409)
    expect(after.body).toEqual({ error: 'Refund already requested' })
  })

  it('needs refunds:create / read:refunds and hides other accounts', async () => {
    const { orderId } = await paidSale(svc, creator, { key })
    const readOnly = await creator.key(['read:orders'])
    const denied = await refund(orderId, 'motivo', readOnly)
    expect(denied.status).toBe(403)
    expect(denied.body.error).toBe('Missing scope: refunds:create')
    expect((await svc.api('GET', '/api/v1/refunds', { key: readOnly })).status).toBe(403)
    const stranger = await signupCreator(svc.api)
    const strangerKey = await stranger.key(['refunds:create', 'read:refunds'])
    const foreign = await refund(orderId, 'motivo', strangerKey)
    expect(foreign.status).toBe(404)
    expect(foreign.body).toEqual({ error: 'Pedido não encontrado' })
    const mine = await refund(orderId)
    const peek = await svc.api('GET', `/api/v1/refunds/${mine.body.data.id}`, { key: strangerKey })
    expect(peek.status).toBe(404)
    expect(peek.body).toEqual({ error: 'Reembolso não encontrado' })
  })
})

describe(`refunds: completed and failed (${engine})`, () => {
  it('completed: order refunded, access revoked, events, buyer e-mail, balances and ledger', async () => {
    const before = await balance()
    const product = await createProduct(svc.api, key, { name: 'Curso de Violão' })
    const { orderId, chargeId } = await paidSale(svc, creator, {
      key,
      productId: product.id,
      body: { email: 'reembolso.bia@example.com' },
    })
    const created = await refund(orderId, 'Produto não atendeu')
    const done = await settled(created.body.data.id)
    expect(done).toMatchObject({ status: 'completed', failure_reason: null })
    expect(done.completed_at).toEqual(expect.any(String))

    const order = (await svc.api('GET', `/api/v1/orders/${orderId}`, { key })).body.data
    expect(order).toMatchObject({ status: 'refunded', refunded_at: done.completed_at })
    const members = (await svc.api('GET', '/api/v1/members', { key })).body.data
    const access = members.flatMap((m: { access: unknown[] }) => m.access)
    expect(access.find((a: { order_id: string }) => a.order_id === orderId)).toMatchObject({
      status: 'revoked',
    })
    const requested = await eventsOf('refund.requested', orderId)
    expect(requested).toEqual([
      {
        refund_id: created.body.data.id,
        order_id: orderId,
        amount: 97.9,
        reason: 'Produto não atendeu',
        status: 'pending',
      },
      {
        refund_id: created.body.data.id,
        order_id: orderId,
        amount: 97.9,
        reason: 'Produto não atendeu',
        status: 'completed',
      },
    ])
    expect(await eventsOf('access.revoked', orderId)).toEqual([
      expect.objectContaining({ order_id: orderId, product_id: product.id, reason: 'refund' }),
    ])
    expect(await eventsOf('order.refunded', orderId)).toHaveLength(1)
    const mails = (await svc.api('GET', '/api/dev/emails?to=reembolso.bia@example.com')).body.data
    const mail = mails.find((m: { subject: string }) => m.subject.startsWith('Reembolso'))
    expect(mail.subject).toBe('Reembolso concluído: Curso de Violão')
    expect(mail.text).toContain(
      'O reembolso de R$ 97,90 da sua compra de "Curso de Violão" foi concluído.',
    )
    expect(mail.html).toContain('<strong>R$ 97,90</strong>')

    const after = await balance()
    expect(after.paid_total - before.paid_total).toBeCloseTo(97.9, 2)
    expect(after.refunded_total - before.refunded_total).toBeCloseTo(97.9, 2)
    expect(after.available).toBeCloseTo(before.available, 2)
    const postings = await svc.deps.db
      .selectFrom('ledger_postings')
      .select('kind')
      .where('refund_id', '=', created.body.data.id)
      .orderBy('created_at')
      .execute()
    expect(postings.map((p) => p.kind).sort()).toEqual(['refund_paid', 'refund_reserved'])
    const sandbox = await svc.deps.db
      .selectFrom('sandbox_charges')
      .select('status')
      .where('id', '=', chargeId)
      .executeTakeFirstOrThrow()
    expect(sandbox.status).toBe('refunded')
    expect(await ledgerTotals(svc.deps.db)).toEqual({ total: 0, worstPosting: 0 })
  })

  it('failed at the gateway: everything goes back, the order stays paid, a new request is allowed', async () => {
    const before = await balance()
    const { orderId, chargeId } = await paidSale(svc, creator, { key })
    const blocked = await svc.api('POST', `/sandbox/charges/${chargeId}/fail-refunds`)
    expect(blocked.body.refund_failure).toBe('A conta do comprador para devolução está encerrada')
    const first = await refund(orderId)
    const failed = await settled(first.body.data.id)
    expect(failed).toMatchObject({
      status: 'failed',
      failure_reason: 'A conta do comprador para devolução está encerrada',
    })
    expect((await eventsOf('refund.requested', orderId)).map((e) => e.status)).toEqual([
      'pending',
      'failed',
    ])
    const order = (await svc.api('GET', `/api/v1/orders/${orderId}`, { key })).body.data
    expect(order).toMatchObject({ status: 'paid', refunded_at: null })
    expect(await eventsOf('access.revoked', orderId)).toEqual([])
    const after = await balance()
    expect(after.refunded_total).toBeCloseTo(before.refunded_total, 2)
    expect(after.available - before.available).toBeCloseTo(97.9, 2)

    const second = await refund(orderId)
    expect(second.status).toBe(201)
    expect((await settled(second.body.data.id)).status).toBe('failed')
    const list = await svc.api('GET', `/api/v1/refunds?order_id=${orderId}`, { key })
    expect(list.body.data.map((r: { id: string }) => r.id)).toEqual([
      second.body.data.id,
      first.body.data.id,
    ])
    const failedOnly = await svc.api('GET', '/api/v1/refunds?status=completed', { key })
    expect(failedOnly.body.data.every((r: { status: string }) => r.status === 'completed')).toBe(
      true,
    )
  })

  it("takes each party's share back: commission rejected, splits reversed", async () => {
    const product = await createProduct(svc.api, key, { plans: [{ name: 'U', price: 100 }] })
    const aff = await svc.api('POST', `/api/v1/products/${product.id}/affiliates`, {
      key,
      body: { email: 'aff.reembolso@example.com', commission_percent: 10 },
    })
    const cop = await svc.api('POST', `/api/v1/products/${product.id}/coproducers`, {
      key,
      body: { email: 'cop.reembolso@example.com', split_percent: 50 },
    })
    const before = await balance()
    const created = await checkout(svc.api, product.id, { affiliate_code: aff.body.data.code })
    await pay(svc.api, created.body.charge_id)
    const r = await refund(created.body.order_id)
    await settled(r.body.data.id)
    const view = (table: 'affiliate_balance_view' | 'coproducer_balance_view', userId: string) =>
      svc.deps.db.selectFrom(table).selectAll().where('user_id', '=', userId).executeTakeFirst()
    expect(await view('affiliate_balance_view', aff.body.data.user_id)).toMatchObject({
      paid_total: 0,
      rejected_total: 1000,
      available: 0,
      pending_count: 0,
    })
    expect(await view('coproducer_balance_view', cop.body.data.user_id)).toMatchObject({
      earned_total: 4500,
      refunded_total: 4500,
      available: 0,
    })
    const after = await balance()
    expect(after.affiliate_owed).toBeCloseTo(before.affiliate_owed, 2)
    expect(after.coproducer_owed).toBeCloseTo(before.coproducer_owed, 2)
    expect(after.available).toBeCloseTo(before.available, 2)
    const share = await svc.deps.db
      .selectFrom('order_shares')
      .select('status')
      .where('order_id', '=', created.body.order_id)
      .where('kind', '=', 'commission')
      .executeTakeFirstOrThrow()
    expect(share.status).toBe('rejected')
  })

  it('refused when the account cannot cover its part (its money was withdrawn): nothing written', async () => {
    const seller = await signupCreator(svc.api)
    const sellerKey = await seller.key(['write:products', 'refunds:create', 'read:payouts'])
    const { orderId } = await paidSale(svc, seller, { key: sellerKey, price: 100 })
    const holder = { kind: 'creator' as const, accountId: seller.accountId }
    await withTx(svc.deps.db, async (tx) => {
      await lockAvailable(tx, holder)
      await holdWithdrawal(tx, svc.deps, { holder, withdrawalId: randomUUID(), amountCents: 9000 })
    })
    const res = await refund(orderId, 'motivo', sellerKey)
    expect(res.status).toBe(400)
    expect(res.body).toEqual({ error: 'Saldo insuficiente para reembolsar este pedido' })
    const rows = await svc.deps.db
      .selectFrom('refunds')
      .select('id')
      .where('order_id', '=', orderId)
      .execute()
    expect(rows).toEqual([])
    const b = await svc.api('GET', '/api/balance', { key: sellerKey })
    expect(b.body).toMatchObject({ available: 10, refunded_total: 0, withdrawn_total: 90 })
  })
})
