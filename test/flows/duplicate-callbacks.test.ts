import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { withTx } from '../../src/kit/db.ts'
import { sandboxSecret, signSandboxBody } from '../../src/modules/payments/gateways/sandbox.ts'
import { signupCreator } from '../setup/actors.ts'
import { blockedOnALock } from '../setup/database.ts'
import { checkout, createProduct } from '../setup/purchase.ts'
import { engine, eventually, startTestService, type TestService } from '../setup/service.ts'

let svc: TestService
beforeAll(async () => {
  svc = await startTestService()
})
afterAll(() => svc?.stop())

async function countRows(
  table: 'events' | 'access_grants' | 'emails' | 'payment_callbacks',
  where: [string, string],
) {
  const row = await svc.deps.db
    .selectFrom(table)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where(where[0] as never, '=', where[1] as never)
    .executeTakeFirstOrThrow()
  return Number(row.n)
}

/**
 * The sandbox's signed `charge.paid` of a checkout's charge, as a function that posts it the
 * way the gateway does (the same bytes every time): the status of each post.
 */
function paidNotification(
  eventId: string,
  created: { order_id: string; charge_id: string },
  amountCents = 9790,
) {
  const body = JSON.stringify({
    id: eventId,
    type: 'charge.paid',
    charge_id: created.charge_id,
    reference: created.order_id,
    amount_cents: amountCents,
    created_at: new Date().toISOString(),
  })
  const signature = signSandboxBody(sandboxSecret(svc.deps), body)
  return () =>
    fetch(`${svc.url}/api/payments/callback/sandbox`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-sandbox-signature': signature },
      body,
    })
}

describe(`duplicate and concurrent callbacks have one effect (${engine})`, () => {
  it('20 concurrent copies of one callback plus 5 fresh pay callbacks → one paid transition', async () => {
    const creator = await signupCreator(svc.api)
    const key = await creator.key(['write:products'])
    const product = await createProduct(svc.api, key)
    const created = await checkout(svc.api, product.id)
    const { order_id: orderId, charge_id: chargeId } = created.body

    const post = paidNotification('evt_same_notification', created.body)
    const copies = Array.from({ length: 20 }, () => post().then((r) => r.status))
    const fresh = Array.from({ length: 5 }, () =>
      svc.api('POST', `/sandbox/charges/${chargeId}/pay`).then((r) => r.body.callback_status),
    )
    const statuses = await Promise.all([...copies, ...fresh])
    expect(statuses.every((s) => s === 200)).toBe(true)

    const status = await svc.api('GET', `/api/orders/${orderId}/status`)
    expect(status.body.status).toBe('paid')
    const outcomes = await svc.deps.db
      .selectFrom('payment_callbacks')
      .select('outcome')
      .where('gateway_charge_id', '=', chargeId)
      .execute()
    expect(outcomes.filter((o) => o.outcome === 'paid')).toHaveLength(1)
    expect(outcomes).toHaveLength(6) // one per distinct gateway event id
    expect(await countRows('access_grants', ['order_id', orderId])).toBe(1)
    expect(await countRows('emails', ['dedupe_key', `delivery:${orderId}`])).toBe(1)
    // One sale posting: the buyer's money is counted once in the ledger and in the balance.
    const postings = await svc.deps.db
      .selectFrom('ledger_postings')
      .innerJoin('ledger_entries', 'ledger_entries.posting_id', 'ledger_postings.id')
      .select(['ledger_postings.id', 'book', 'amount_cents'])
      .where('order_id', '=', orderId)
      .execute()
    expect(new Set(postings.map((p) => p.id)).size).toBe(1)
    expect(postings.map((p) => [p.book, p.amount_cents]).sort()).toEqual([
      ['creator', 9790],
      ['gateway', -9790],
    ])
    const balance = await svc.deps.db
      .selectFrom('creator_balance_view')
      .selectAll()
      .where('account_id', '=', creator.accountId)
      .executeTakeFirstOrThrow()
    expect(balance).toMatchObject({ paid_total: 9790, available: 9790 })

    const events = await svc.deps.db.selectFrom('events').select(['type', 'data']).execute()
    const forOrder = events.filter((e) => (e.data as { order_id?: string }).order_id === orderId)
    expect(forOrder.map((e) => e.type).sort()).toEqual([
      'access.granted',
      'member.enrolled',
      'order.created',
      'order.paid',
    ])
  })

  // PostgreSQL only: the race needs a second session holding the charge's lock.
  if (engine === 'postgres')
    it('a callback that waited while another paid the order is recorded as a duplicate', async () => {
      const creator = await signupCreator(svc.api)
      const product = await createProduct(svc.api, await creator.key(['write:products']))
      const created = (await checkout(svc.api, product.id)).body
      const { order_id: orderId, charge_id: chargeId } = created
      const post = paidNotification('evt_late_copy', created)
      let late: Promise<number> | undefined
      // The first callback's transaction, as it stands after its lookup: the charge locked.
      await withTx(svc.deps.db, async (tx) => {
        await tx
          .selectFrom('charges')
          .select('id')
          .where('gateway_charge_id', '=', chargeId)
          .forUpdate()
          .execute()
        late = post().then((r) => r.status)
        await eventually(() => blockedOnALock(tx), 10_000)
        // It pays the order before committing (what its own statement does).
        await tx
          .updateTable('orders')
          .set({ status: 'paid', paid_at: new Date() })
          .where('id', '=', orderId)
          .execute()
      })
      expect(await late).toBe(200)
      const outcomes = await svc.deps.db
        .selectFrom('payment_callbacks')
        .select('outcome')
        .where('gateway_event_id', '=', 'evt_late_copy')
        .execute()
      expect(outcomes).toEqual([{ outcome: 'duplicate' }])
      expect(await countRows('access_grants', ['order_id', orderId])).toBe(0)
    })

  it('a callback whose amount differs from the order leaves it unpaid', async () => {
    const creator = await signupCreator(svc.api)
    const key = await creator.key(['write:products'])
    const product = await createProduct(svc.api, key)
    const created = await checkout(svc.api, product.id)
    const res = await paidNotification('evt_wrong_amount', created.body, 100)()
    expect(res.status).toBe(200)
    expect((await res.json()).outcome).toBe('amount_mismatch')
    const status = await svc.api('GET', `/api/orders/${created.body.order_id}/status`)
    expect(status.body.status).toBe('pending')
  })

  it('a notification recorded once is a duplicate ever after, even when it now reads paid in full', async () => {
    const creator = await signupCreator(svc.api)
    const product = await createProduct(svc.api, await creator.key(['write:products']))
    const created = (await checkout(svc.api, product.id)).body
    const first = await paidNotification('evt_read_again', created, 100)()
    expect((await first.json()).outcome).toBe('amount_mismatch')
    // The same notification id, its charge now read back at the order's amount.
    const again = await paidNotification('evt_read_again', created)()
    expect(again.status).toBe(200)
    expect((await again.json()).outcome).toBe('duplicate')
    const status = await svc.api('GET', `/api/orders/${created.order_id}/status`)
    expect(status.body.status).toBe('pending')
    expect(await countRows('payment_callbacks', ['gateway_event_id', 'evt_read_again'])).toBe(1)
  })
})
