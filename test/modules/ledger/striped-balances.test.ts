// Creator balances striped over slot rows (migration 0013): many sales of one account at once
// while withdrawals race, and the lock behaviour that makes it safe. On PostgreSQL these really
// run at once (a pool of connections); PGlite serializes them.
import { randomUUID } from 'node:crypto'
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { withTx } from '../../../src/kit/db.ts'
import { ledgerRepo } from '../../../src/modules/ledger/repo.ts'
import { type Holder, holdWithdrawal, lockAvailable } from '../../../src/modules/ledger/service.ts'
import { signupCreator } from '../../setup/actors.ts'
import { blockedOnALock } from '../../setup/database.ts'
import { expectBooksExact, holdNow, paidSale } from '../../setup/ledger.ts'
import { checkout, createProduct, pay } from '../../setup/purchase.ts'
import { engine, eventually, startTestService, type TestService } from '../../setup/service.ts'

let svc: TestService
beforeAll(async () => {
  svc = await startTestService()
})
afterAll(() => svc?.stop())

const slotsOf = async (accountId: string) =>
  (
    await svc.deps.db
      .selectFrom('creator_balances')
      .select('slot')
      .where('account_id', '=', accountId)
      .orderBy('slot')
      .execute()
  ).map((r) => r.slot)

const ZERO = { paid: 0, refunded: 0, withdrawn: 0 }

/** A promise and the function that resolves it: holds a transaction open until released. */
function latch(): [Promise<void>, () => void] {
  let open!: () => void
  const done = new Promise<void>((resolve) => {
    open = resolve
  })
  return [done, open]
}

describe(`striped creator balances (${engine})`, () => {
  it('24 sales of one account at once while 12 withdrawals race: sales spread over slots, each withdrawal checked against the sum, never overdrawn, books exact', async () => {
    const creator = await signupCreator(svc.api)
    const key = await creator.key(['write:products'])
    const holder: Holder = { kind: 'creator', accountId: creator.accountId }
    await paidSale(svc, creator, { key, price: 600 })
    const productId = (await createProduct(svc.api, key, { plans: [{ name: 'U', price: 100 }] })).id
    const carts = await Promise.all(Array.from({ length: 24 }, () => checkout(svc.api, productId)))
    expect(carts.every((c) => c.status === 201)).toBe(true)

    const hold = (amountCents: number) =>
      withTx(svc.deps.db, async (tx) => {
        await lockAvailable(tx, holder)
        await holdWithdrawal(tx, svc.deps, { holder, withdrawalId: randomUUID(), amountCents })
        // Still under its locks: what is left, as the next withdrawal will see it.
        return lockAvailable(tx, holder)
      }).then(
        (after) => ({ after }),
        (error: Error) => error.message,
      )
    // R$ 600 before, R$ 2.400 paid during: R$ 3.000 in all, R$ 3.600 asked for.
    const [paid, holds] = await Promise.all([
      Promise.all(carts.map((c) => pay(svc.api, c.body.charge_id))),
      Promise.all(Array.from({ length: 12 }, () => hold(30_000))),
    ])
    expect(paid.every((p) => p.body.callback_status === 200)).toBe(true)
    const held = holds.filter((h) => typeof h === 'object')
    for (const h of holds) if (typeof h === 'string') expect(h).toBe('Saldo insuficiente')
    // No accepted withdrawal left the sum of the slots below zero.
    for (const h of held) expect(h.after).toBeGreaterThanOrEqual(0)
    expect(held.length).toBeGreaterThanOrEqual(2)
    expect(held.length).toBeLessThanOrEqual(10)

    const view = await svc.deps.db
      .selectFrom('creator_balance_view')
      .selectAll()
      .where('account_id', '=', creator.accountId)
      .executeTakeFirstOrThrow()
    expect(view).toMatchObject({
      paid_total: 300_000,
      withdrawn_total: held.length * 30_000,
      available: 300_000 - held.length * 30_000,
    })
    expect(await withTx(svc.deps.db, (tx) => lockAvailable(tx, holder))).toBe(view.available)
    // 25 sales on 16 slots at random: all in one slot has a chance of 16^-24.
    const slots = await slotsOf(creator.accountId)
    expect(slots.length).toBeGreaterThan(1)
    expect(slots.length).toBeLessThanOrEqual(16)
    await expectBooksExact(svc.deps.db, {
      accounts: [creator.accountId],
      affiliates: [],
      coproducers: [],
    })
  })

  it('a sale holds only its slot; a withdrawal waits for every slot and then sees it', async () => {
    const creator = await signupCreator(svc.api)
    const account = creator.accountId
    const db = svc.deps.db
    const [held, release] = latch()
    const [opened, saleOpen] = latch()
    await withTx(db, (tx) =>
      ledgerRepo.addCreatorSlots(tx, 3, [{ accountId: account, counters: ZERO }]),
    )
    // A sale in flight on slot 3: its row stays locked until it commits.
    const sale = withTx(db, async (tx) => {
      await ledgerRepo.addCreatorSlots(tx, 3, [{ accountId: account, counters: ZERO }])
      saleOpen()
      await held
    })
    await opened
    if (engine === 'postgres') {
      // Another sale, slot 5, commits while the first is still open: no queue on one row.
      await withTx(db, (tx) =>
        ledgerRepo.addCreatorSlots(tx, 5, [{ accountId: account, counters: ZERO }]),
      )
      expect(await slotsOf(account)).toEqual([3, 5])
      // A withdrawal's check must wait for slot 3.
      const check = withTx(db, (tx) => ledgerRepo.lockCreatorSlots(tx, [account]))
      await eventually(() => blockedOnALock(db))
      release()
      await sale
      expect((await check).get(account)).toBe(0)
    } else {
      // PGlite runs one transaction at a time: the others queue behind the open one.
      const other = withTx(db, (tx) =>
        ledgerRepo.addCreatorSlots(tx, 5, [{ accountId: account, counters: ZERO }]),
      )
      release()
      await Promise.all([sale, other])
      expect(
        (await withTx(db, (tx) => ledgerRepo.lockCreatorSlots(tx, [account]))).get(account),
      ).toBe(0)
    }
    // The check created slot 0, where checked changes write.
    expect(await slotsOf(account)).toEqual([0, 3, 5])
  })
})

/** Slots of a holder whose paid (affiliate) or earned (co-producer) counter moved. */
async function usedHolderSlots(book: 'affiliate' | 'coproducer', userId: string) {
  const { rows } = await (book === 'affiliate'
    ? sql<{ slot: number }>`SELECT slot FROM affiliate_balances
        WHERE user_id = ${userId} AND paid_cents <> 0 ORDER BY slot`
    : sql<{ slot: number }>`SELECT slot FROM coproducer_balances
        WHERE user_id = ${userId} AND earned_cents <> 0 ORDER BY slot`
  ).execute(svc.deps.db)
  return rows.map((r) => r.slot)
}

const holderView = (table: 'affiliate_balance_view' | 'coproducer_balance_view', userId: string) =>
  svc.deps.db.selectFrom(table).selectAll().where('user_id', '=', userId).executeTakeFirstOrThrow()

/**
 * A R$ 100 product with a 20% affiliate and a 25% co-producer (of what the commission leaves):
 * R$ 20 to each and R$ 60 to the creator per sale.
 */
async function launch() {
  const creator = await signupCreator(svc.api)
  const key = await creator.key(['write:products', 'refunds:create'])
  const productId = (await createProduct(svc.api, key, { plans: [{ name: 'U', price: 100 }] })).id
  const aff = await svc.api('POST', `/api/v1/products/${productId}/affiliates`, {
    key,
    body: { email: `aff-${randomUUID()}@example.com`, commission_percent: 20 },
  })
  const cop = await svc.api('POST', `/api/v1/products/${productId}/coproducers`, {
    key,
    body: { email: `cop-${randomUUID()}@example.com`, split_percent: 25 },
  })
  expect([aff.status, cop.status]).toEqual([201, 201])
  const affiliate: Holder = { kind: 'affiliate', userId: aff.body.data.user_id }
  const coproducer: Holder = { kind: 'coproducer', userId: cop.body.data.user_id }
  /** `n` sales through the affiliate's link, all checked out, then all paid at once. */
  const sales = async (n: number) => {
    const carts = await Promise.all(
      Array.from({ length: n }, () =>
        checkout(svc.api, productId, { affiliate_code: aff.body.data.code }),
      ),
    )
    expect(carts.every((c) => c.status === 201)).toBe(true)
    const paid = await Promise.all(carts.map((c) => pay(svc.api, c.body.charge_id)))
    expect(paid.every((p) => p.body.callback_status === 200)).toBe(true)
    return carts.map((c) => ({ orderId: c.body.order_id as string, chargeId: c.body.charge_id }))
  }
  const books = () =>
    expectBooksExact(svc.deps.db, {
      accounts: [creator.accountId],
      affiliates: [affiliate.userId],
      coproducers: [coproducer.userId],
    })
  return { creator, key, affiliate, coproducer, sales, books }
}

const holdFor = (holder: Holder, amountCents: number) => holdNow(svc, holder, amountCents)

describe(`striped affiliate and co-producer balances (${engine})`, () => {
  it('24 sales through one affiliate link at once land in several slots of the affiliate and the co-producer; refunds and chargebacks after them keep every sum exact', async () => {
    const { creator, key, affiliate, coproducer, sales, books } = await launch()
    const orders = await sales(24)
    // 24 sales on 16 slots at random: all in one slot has a chance of 16^-23. Before 0021 a
    // holder had one row, so this is what proves the stripes.
    expect((await usedHolderSlots('affiliate', affiliate.userId)).length).toBeGreaterThan(1)
    expect((await usedHolderSlots('coproducer', coproducer.userId)).length).toBeGreaterThan(1)
    expect(await holderView('affiliate_balance_view', affiliate.userId)).toMatchObject({
      paid_total: 24 * 2000,
      rejected_total: 0,
      withdrawn: 0,
      available: 24 * 2000,
    })
    expect(await holderView('coproducer_balance_view', coproducer.userId)).toMatchObject({
      earned_total: 24 * 2000,
      available: 24 * 2000,
    })
    await books()

    // Three refunds and three chargebacks at once, each in whatever slot its sale used.
    const refunds = orders
      .slice(0, 3)
      .map((o) =>
        svc.api('POST', `/api/v1/orders/${o.orderId}/refund`, { key, body: { reason: 'Desisti' } }),
      )
    const chargebacks = orders
      .slice(3, 6)
      .map((o) => svc.api('POST', `/sandbox/charges/${o.chargeId}/chargeback`))
    const answers = await Promise.all([...refunds, ...chargebacks])
    expect(answers.map((a) => a.status)).toEqual([201, 201, 201, 200, 200, 200])
    expect(await holderView('affiliate_balance_view', affiliate.userId)).toMatchObject({
      paid_total: 18 * 2000,
      rejected_total: 6 * 2000,
      available: 18 * 2000,
    })
    expect(await holderView('coproducer_balance_view', coproducer.userId)).toMatchObject({
      earned_total: 24 * 2000,
      refunded_total: 6 * 2000,
      available: 18 * 2000,
    })
    expect(
      await withTx(svc.deps.db, (tx) =>
        lockAvailable(tx, { kind: 'creator', accountId: creator.accountId }),
      ),
    ).toBe(18 * 6000)
    await books()
  })

  it('20 withdrawals of one affiliate and 20 of one co-producer at once: exactly one of each accepted, balances exact', async () => {
    const { affiliate, coproducer, sales, books } = await launch()
    await sales(10)
    // R$ 200 earned by each: 60% asked for by each request, so exactly one fits.
    const [affiliateHolds, coproducerHolds] = await Promise.all([
      Promise.all(Array.from({ length: 20 }, () => holdFor(affiliate, 12_000))),
      Promise.all(Array.from({ length: 20 }, () => holdFor(coproducer, 12_000))),
    ])
    for (const holds of [affiliateHolds, coproducerHolds]) {
      expect(holds.filter((h) => h === 'held')).toHaveLength(1)
      expect(holds.filter((h) => h !== 'held').every((h) => h === 'Saldo insuficiente')).toBe(true)
    }
    expect(await holderView('affiliate_balance_view', affiliate.userId)).toMatchObject({
      withdrawn: 12_000,
      available: 8000,
    })
    expect(await holderView('coproducer_balance_view', coproducer.userId)).toMatchObject({
      withdrawn: 12_000,
      available: 8000,
    })
    expect(await withTx(svc.deps.db, (tx) => lockAvailable(tx, affiliate))).toBe(8000)
    expect(await withTx(svc.deps.db, (tx) => lockAvailable(tx, coproducer))).toBe(8000)
    // A holder's checked change writes slot 0 only.
    const { rows } = await sql<{ slot: number }>`SELECT slot FROM affiliate_balances
      WHERE user_id = ${affiliate.userId} AND withdrawn_cents <> 0`.execute(svc.deps.db)
    expect(rows).toEqual([{ slot: 0 }])
    await books()
  })

  it('a sale holds one slot of its affiliate; a withdrawal waits for all 16 and then sees it', async () => {
    const userId = (await signupCreator(svc.api)).userId
    const db = svc.deps.db
    const [held, release] = latch()
    const [opened, saleOpen] = latch()
    // The holder's first change creates its 16 rows (concurrent first changes wait for it).
    await withTx(db, (tx) => ledgerRepo.ensureHolderSlots(tx, 'affiliate_balances', [userId]))
    // A sale in flight on slot 3 of the affiliate.
    const sale = withTx(db, async (tx) => {
      await ledgerRepo.lockHolderSlot(tx, 'affiliate_balances', [userId], 3)
      saleOpen()
      await held
    })
    await opened
    if (engine === 'postgres') {
      // Another sale, slot 5, commits while the first is still open: no queue on one row.
      await withTx(db, (tx) => ledgerRepo.lockHolderSlot(tx, 'affiliate_balances', [userId], 5))
      const check = withTx(db, (tx) => ledgerRepo.lockHolders(tx, 'affiliate_balances', [userId]))
      await eventually(() => blockedOnALock(db))
      release()
      await sale
      expect((await check).get(userId)).toBe(0)
    } else {
      release()
      await sale
    }
    const { rows } = await sql<{ n: number }>`SELECT count(*)::int AS n FROM affiliate_balances
      WHERE user_id = ${userId}`.execute(db)
    expect(rows[0]!.n).toBe(16)
  })

  it('sales at once after a refund left an affiliate in debt: the debt moves onto them once, books exact', async () => {
    const { key, affiliate, coproducer, sales, books } = await launch()
    const first = await sales(4)
    // Everything withdrawn, then two of the withdrawn commissions refunded: R$ 40 of debt.
    expect(await holdFor(affiliate, 8000)).toBe('held')
    expect(await holdFor(coproducer, 8000)).toBe('held')
    for (const o of first.slice(0, 2)) {
      const refund = await svc.api('POST', `/api/v1/orders/${o.orderId}/refund`, {
        key,
        body: { reason: 'Desisti' },
      })
      expect(refund.status).toBe(201)
    }
    expect((await holderView('affiliate_balance_view', affiliate.userId)).available).toBe(-4000)
    const { rows: debts } = await sql`SELECT id FROM order_shares
      WHERE user_id = ${affiliate.userId} AND status = 'rejected' AND allocated_cents > 0`.execute(
      svc.deps.db,
    )
    expect(debts).toHaveLength(2)
    await sales(12)
    expect(await holderView('affiliate_balance_view', affiliate.userId)).toMatchObject({
      paid_total: 14 * 2000,
      withdrawn: 8000,
      available: 14 * 2000 - 8000,
    })
    expect((await holderView('coproducer_balance_view', coproducer.userId)).available).toBe(
      14 * 2000 - 8000,
    )
    // books() also asserts that no debt is left beside earnings with room.
    await books()
  })
})
