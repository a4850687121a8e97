// Refunds whose gateway answers never reach us (SPEC §7): never failed on an unknown answer
// (the gateway may have paid), looked up before being asked again, flagged for a person, and
// settled by an admin; a buyer paid twice (refund and chargeback) is recorded, not dropped.
// The service runs as ROLE=api: the test runs the refund and reconciliation passes itself.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { CHECK_GRACE_MS } from '../../../src/modules/payments/checks.ts'
import { runReconciliation } from '../../../src/modules/payments/reconcile.ts'
import { ATTENTION_AFTER, runRefundPass } from '../../../src/modules/refunds/jobs.ts'
import { type Creator, signupCreator } from '../../setup/actors.ts'
import { ledgerTotals, paidSale } from '../../setup/ledger.ts'
import { ADMIN, adminSession } from '../../setup/payouts.ts'
import { engine, type Session, startTestService, type TestService } from '../../setup/service.ts'

let svc: TestService
let admin: Session
let creator: Creator
let key: string
beforeAll(async () => {
  svc = await startTestService({ ROLE: 'api', ...ADMIN })
  admin = await adminSession(svc.api)
  creator = await signupCreator(svc.api)
  key = await creator.key(['write:products', 'read:payouts', 'refunds:create', 'read:refunds'])
})
afterAll(() => svc?.stop())

const HOUR = 3_600_000

/** A paid sale of R$ 100,00 whose refund was requested while its answers are lost. */
async function refundWithLostAnswers() {
  const sale = await paidSale(svc, creator, { key, price: 100 })
  await loseAnswers(sale.chargeId, true)
  const res = await svc.api('POST', `/api/v1/orders/${sale.orderId}/refund`, {
    key,
    body: { reason: 'Cliente desistiu' },
  })
  expect(res.status).toBe(201)
  return { ...sale, refundId: res.body.data.id as string }
}

async function loseAnswers(chargeId: string, lost: boolean) {
  const res = await svc.api('POST', `/sandbox/charges/${chargeId}/lose-refund-answers`, {
    body: { lost },
  })
  expect(res.status).toBe(200)
}

/** Waits out the longest backoff, then one pass of the refund worker. */
async function refundPassLater() {
  await svc.deps.clock.advance(HOUR)
  return runRefundPass(svc.deps)
}

const refundOf = async (id: string) =>
  (await svc.api('GET', `/api/v1/refunds/${id}`, { key })).body.data
const adminView = async (id: string, query = '') => {
  const res = await svc.api('GET', `/api/admin/refunds${query}`, { session: admin })
  expect(res.status).toBe(200)
  return res.body.data.find((r: { id: string }) => r.id === id)
}
const balance = async () => (await svc.api('GET', '/api/balance', { key })).body
const orderStatus = async (id: string) =>
  (await svc.api('GET', `/api/orders/${id}/status`)).body.status
const gatewayRefunds = (refundId: string) =>
  svc.deps.db.selectFrom('sandbox_refunds').select('status').where('id', '=', refundId).execute()
const postingsOf = (refundId: string) =>
  svc.deps.db
    .selectFrom('ledger_postings')
    .innerJoin('ledger_entries', 'ledger_entries.posting_id', 'ledger_postings.id')
    .select(['kind', 'book', 'amount_cents'])
    .where('refund_id', '=', refundId)
    .where('kind', 'in', ['refund_completed_late', 'refund_charged_back'])
    .orderBy('book')
    .execute()
const settle = (id: string, body: unknown, as: Session | null = admin) =>
  svc.api('POST', `/api/admin/refunds/${id}/settle`, { session: as ?? undefined, body })

describe(`refunds whose answers are lost (${engine})`, () => {
  it(`${ATTENTION_AFTER}+ unknown answers: still pending with its money reserved, flagged; once the gateway answers, the lookup completes it`, async () => {
    const { orderId, chargeId, refundId } = await refundWithLostAnswers()
    const before = await balance()
    for (let i = 0; i <= ATTENTION_AFTER; i++) expect(await refundPassLater()).toBe(1)

    expect(await refundOf(refundId)).toMatchObject({ status: 'pending', failure_reason: null })
    expect(await balance()).toEqual(before) // still reserved: counted in refunded_total
    expect(before).toMatchObject({ available: 0, refunded_total: 100 })
    const flagged = await adminView(refundId, '?needs_attention=true')
    expect(flagged).toMatchObject({ status: 'pending', attempts: ATTENTION_AFTER + 1 })
    expect(flagged.needs_attention_since).toEqual(expect.any(String))
    expect(flagged.last_error).toMatch(/refund answer lost/)
    // One refund at the gateway, made by the first call; later tries looked it up.
    expect(await gatewayRefunds(refundId)).toEqual([{ status: 'completed' }])

    await loseAnswers(chargeId, false)
    expect(await refundPassLater()).toBe(1)
    expect(await refundOf(refundId)).toMatchObject({ status: 'completed' })
    expect(await orderStatus(orderId)).toBe('refunded')
    expect(await adminView(refundId, '?needs_attention=true')).toBeUndefined()
    expect(await gatewayRefunds(refundId)).toHaveLength(1)
    expect(await balance()).toMatchObject({ available: 0, refunded_total: 100 })
    expect(await ledgerTotals(svc.deps.db)).toEqual({ total: 0, worstPosting: 0 })
  })

  it('the platform admin settles a pending refund (admin only, once, through the same ledger paths)', async () => {
    const { orderId, refundId } = await refundWithLostAnswers()
    expect(await refundPassLater()).toBe(1)
    const body = { status: 'completed', note: 'Estorno confirmado no painel da operadora' }
    expect((await settle(refundId, body, null)).status).toBe(401)
    expect((await settle(refundId, body, creator.session)).status).toBe(403)
    expect((await svc.api('GET', '/api/admin/refunds', { session: creator.session })).status).toBe(
      403,
    )
    expect((await settle(refundId, { status: 'completed', note: '' })).status).toBe(400)

    const settled = await settle(refundId, body)
    expect(settled.status).toBe(200)
    expect(settled.body.data).toMatchObject({
      id: refundId,
      status: 'completed',
      admin_note: body.note,
      needs_attention_since: null,
    })
    expect(await orderStatus(orderId)).toBe('refunded')
    const again = await settle(refundId, { status: 'failed', note: 'Mudei de ideia' })
    expect(again).toMatchObject({
      status: 409,
      body: { error: 'Este reembolso não está mais pendente' },
    })
    // The worker's next look finds it settled and leaves it alone.
    expect(await refundPassLater()).toBe(0)
    expect(await ledgerTotals(svc.deps.db)).toEqual({ total: 0, worstPosting: 0 })
  })

  it('a refund the gateway completes after a chargeback failed it: recorded on the row, in the ledger and for the admin', async () => {
    const { orderId, chargeId, refundId } = await refundWithLostAnswers()
    expect(await refundPassLater()).toBe(1) // the gateway refunds; the answer is lost
    const chargeback = await svc.api('POST', `/sandbox/charges/${chargeId}/chargeback`)
    expect(chargeback.body.callback_status).toBe(200)
    expect(await refundOf(refundId)).toMatchObject({ status: 'failed' })
    const before = await balance()

    await loseAnswers(chargeId, false)
    await svc.deps.clock.advance(CHECK_GRACE_MS + 1_000)
    expect(await runReconciliation(svc.deps)).toBeGreaterThanOrEqual(1)

    expect(await refundOf(refundId)).toMatchObject({ status: 'failed' })
    const row = await adminView(refundId, '?needs_attention=true')
    expect(row.completed_after_failure_at).toEqual(expect.any(String))
    expect(row.gateway_refund_id).toMatch(/^sbr_/)
    expect(await postingsOf(refundId)).toEqual([
      { kind: 'refund_completed_late', book: 'gateway', amount_cents: 10_000 },
      { kind: 'refund_completed_late', book: 'platform_receivable', amount_cents: -10_000 },
    ])
    expect(await balance()).toEqual(before) // the creators bore it once, through the chargeback
    expect(await orderStatus(orderId)).toBe('chargeback')
    expect(await ledgerTotals(svc.deps.db)).toEqual({ total: 0, worstPosting: 0 })
  })

  it('a chargeback of an order already refunded is recorded the same way', async () => {
    const sale = await paidSale(svc, creator, { key, price: 100 })
    const res = await svc.api('POST', `/api/v1/orders/${sale.orderId}/refund`, {
      key,
      body: { reason: 'Arrependimento' },
    })
    expect(await refundPassLater()).toBe(1)
    expect(await refundOf(res.body.data.id)).toMatchObject({ status: 'completed' })
    const before = await balance()

    const chargeback = await svc.api('POST', `/sandbox/charges/${sale.chargeId}/chargeback`)
    expect(chargeback.body.callback_status).toBe(200)
    const row = await adminView(res.body.data.id, '?needs_attention=true')
    expect(row).toMatchObject({ status: 'completed' })
    expect(row.charged_back_at).toEqual(expect.any(String))
    expect(await postingsOf(res.body.data.id)).toEqual([
      { kind: 'refund_charged_back', book: 'gateway', amount_cents: 10_000 },
      { kind: 'refund_charged_back', book: 'platform_receivable', amount_cents: -10_000 },
    ])
    expect(await balance()).toEqual(before)
    expect(await orderStatus(sale.orderId)).toBe('refunded')
    expect(await ledgerTotals(svc.deps.db)).toEqual({ total: 0, worstPosting: 0 })
  })
})
