import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type Tx, withTx } from '../../src/kit/db.ts'
import { sandboxSecret, signSandboxBody } from '../../src/modules/payments/gateways/sandbox.ts'
import { signupCreator } from '../setup/actors.ts'
import { checkout, createProduct } from '../setup/purchase.ts'
import { engine, eventually, startTestService, type TestService } from '../setup/service.ts'

let svc: TestService
beforeAll(async () => {
  svc = await startTestService()
})
afterAll(() => svc?.stop())

/** True once another session of this database waits for a lock. */
async function blockedOnALock(tx: Tx) {
  const { rows } = await sql<{ n: number }>`
    SELECT count(*)::int AS n FROM pg_stat_activity
    WHERE datname = current_database() AND wait_event_type = 'Lock'`.execute(tx)
  return rows[0]!.n > 0
}

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

describe(`duplicate and concurrent callbacks have one effect (${engine})`, () => {
  it('20 concurrent copies of one callback plus 5 fresh pay callbacks → one paid transition', async () => {
    const creator = await signupCreator(svc.api)
    const key = await creator.key(['write:products'])
    const product = await createProduct(svc.api, key)
    const created = await checkout(svc.api, product.id)
    const { order_id: orderId, charge_id: chargeId } = created.body

    const body = JSON.stringify({
      id: 'evt_same_notification',
      type: 'charge.paid',
      charge_id: chargeId,
      reference: orderId,
      amount_cents: 9790,
      created_at: new Date().toISOString(),
    })
    const signature = signSandboxBody(sandboxSecret(svc.deps), body)
    const copies = Array.from({ length: 20 }, () =>
      fetch(`${svc.url}/api/payments/callback/sandbox`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-sandbox-signature': signature },
        body,
      }).then((r) => r.status),
    )
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
      const { order_id: orderId, charge_id: chargeId } = (await checkout(svc.api, product.id)).body
      const body = JSON.stringify({
        id: 'evt_late_copy',
        type: 'charge.paid',
        charge_id: chargeId,
        reference: orderId,
        amount_cents: 9790,
        created_at: new Date().toISOString(),
      })
      const signature = signSandboxBody(sandboxSecret(svc.deps), body)
      let late: Promise<number> | undefined
      // The first callback's transaction, as it stands after its lookup: the charge locked.
      await withTx(svc.deps.db, async (tx) => {
        await tx
          .selectFrom('charges')
          .select('id')
          .where('gateway_charge_id', '=', chargeId)
          .forUpdate()
          .execute()
        late = fetch(`${svc.url}/api/payments/callback/sandbox`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-sandbox-signature': signature },
          body,
        }).then((r) => r.status)
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
    const body = JSON.stringify({
      id: 'evt_wrong_amount',
      type: 'charge.paid',
      charge_id: created.body.charge_id,
      reference: created.body.order_id,
      amount_cents: 100,
      created_at: new Date().toISOString(),
    })
    const res = await fetch(`${svc.url}/api/payments/callback/sandbox`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-sandbox-signature': signSandboxBody(sandboxSecret(svc.deps), body),
      },
      body,
    })
    expect(res.status).toBe(200)
    expect((await res.json()).outcome).toBe('amount_mismatch')
    const status = await svc.api('GET', `/api/orders/${created.body.order_id}/status`)
    expect(status.body.status).toBe('pending')
  })
})
