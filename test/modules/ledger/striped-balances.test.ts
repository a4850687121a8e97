// Creator balances striped over slot rows (migration 0013): many sales of one account at once
// while withdrawals race, and the lock behaviour that makes it safe. On PostgreSQL these really
// run at once (a pool of connections); PGlite serializes them.
import { randomUUID } from 'node:crypto'
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type Executor, withTx } from '../../../src/kit/db.ts'
import { ledgerRepo } from '../../../src/modules/ledger/repo.ts'
import { type Holder, holdWithdrawal, lockAvailable } from '../../../src/modules/ledger/service.ts'
import { signupCreator } from '../../setup/actors.ts'
import { expectBooksExact, paidSale } from '../../setup/ledger.ts'
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

async function blockedOnALock(db: Executor) {
  const { rows } = await sql<{ n: number }>`
    SELECT count(*)::int AS n FROM pg_stat_activity
    WHERE datname = current_database() AND wait_event_type = 'Lock'`.execute(db)
  return rows[0]!.n > 0
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
    let release!: () => void
    const held = new Promise<void>((resolve) => {
      release = resolve
    })
    let saleOpen!: () => void
    const opened = new Promise<void>((resolve) => {
      saleOpen = resolve
    })
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
