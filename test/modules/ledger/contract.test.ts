// The ledger's contract with withdrawals (LEDGER-CONTRACT.md), called directly the way the
// payouts module calls it, over a creator balance made by a real paid sale.
import { randomUUID } from 'node:crypto'
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { withTx } from '../../../src/kit/db.ts'
import { postSale } from '../../../src/modules/ledger/sales.ts'
import {
  holdWithdrawal,
  lockAvailable,
  releaseWithdrawal,
  settleWithdrawal,
} from '../../../src/modules/ledger/service.ts'
import { signupCreator } from '../../setup/actors.ts'
import { bookSum, ledgerTotals, paidSale } from '../../setup/ledger.ts'
import { engine, startTestService, type TestService } from '../../setup/service.ts'

let svc: TestService
beforeAll(async () => {
  svc = await startTestService()
})
afterAll(() => svc?.stop())

const available = (accountId: string) =>
  withTx(svc.deps.db, (tx) => lockAvailable(tx, { kind: 'creator', accountId }))
const hold = (accountId: string, amountCents: number, withdrawalId = randomUUID()) =>
  withTx(svc.deps.db, async (tx) => {
    await lockAvailable(tx, { kind: 'creator', accountId })
    await holdWithdrawal(tx, svc.deps, {
      holder: { kind: 'creator', accountId },
      withdrawalId,
      amountCents,
    })
    return withdrawalId
  })
const release = (withdrawalId: string) =>
  withTx(svc.deps.db, (tx) => releaseWithdrawal(tx, svc.deps, { withdrawalId }))
const settle = (withdrawalId: string) =>
  withTx(svc.deps.db, (tx) => settleWithdrawal(tx, svc.deps, { withdrawalId }))

describe(`ledger contract for withdrawals (${engine})`, () => {
  it('a paid sale credits the creator; hold, release and settle move available and withdrawn_total', async () => {
    const creator = await signupCreator(svc.api)
    const key = await creator.key(['write:products', 'read:payouts'])
    const { orderId } = await paidSale(svc, creator, { key })
    const balance = () =>
      svc.api('GET', `/api/balance?tenant_id=${creator.accountId}`, { key }).then((r) => r.body)

    expect(await balance()).toEqual({
      available: 97.9,
      paid_total: 97.9,
      refunded_total: 0,
      withdrawn_total: 0,
      coproducer_owed: 0,
      affiliate_owed: 0,
    })
    const sale = await svc.deps.db
      .selectFrom('ledger_postings')
      .innerJoin('ledger_entries', 'ledger_entries.posting_id', 'ledger_postings.id')
      .select(['ledger_postings.kind', 'book', 'amount_cents'])
      .where('order_id', '=', orderId)
      .orderBy('amount_cents')
      .execute()
    expect(sale).toEqual([
      { kind: 'sale', book: 'gateway', amount_cents: -9790 },
      { kind: 'sale', book: 'creator', amount_cents: 9790 },
    ])
    expect(await available(creator.accountId)).toBe(9790)

    const first = await hold(creator.accountId, 5000)
    expect(await balance()).toMatchObject({ available: 47.9, withdrawn_total: 50 })
    await expect(hold(creator.accountId, 4791)).rejects.toThrow('Saldo insuficiente')
    expect(await available(creator.accountId)).toBe(4790)

    await release(first)
    await release(first) // a repeat changes nothing
    expect(await balance()).toMatchObject({ available: 97.9, withdrawn_total: 0 })
    await expect(settle(first)).rejects.toThrow('Saque devolvido não pode ser pago')

    const second = await hold(creator.accountId, 9790)
    expect(await available(creator.accountId)).toBe(0)
    await settle(second)
    await settle(second)
    await expect(release(second)).rejects.toThrow('Saque já pago não pode ser devolvido')
    expect(await balance()).toMatchObject({ available: 0, withdrawn_total: 97.9, paid_total: 97.9 })
    await expect(hold(creator.accountId, 1)).rejects.toThrow('Saldo insuficiente')

    // The buyer's money came in and the creator's went out: this account's books are even.
    const books = { accountId: creator.accountId }
    expect(await bookSum(svc.deps.db, 'gateway', books)).toBe(0)
    expect(await bookSum(svc.deps.db, 'payouts_payable', books)).toBe(0)
    expect(await bookSum(svc.deps.db, 'creator', books)).toBe(0)
    expect(await ledgerTotals(svc.deps.db)).toEqual({ total: 0, worstPosting: 0 })
  })

  it('the same withdrawal id cannot be held twice', async () => {
    const creator = await signupCreator(svc.api)
    await paidSale(svc, creator, { price: 100 })
    const id = await hold(creator.accountId, 2000)
    await expect(hold(creator.accountId, 2000, id)).rejects.toThrow('Saque já registrado')
    expect(await available(creator.accountId)).toBe(8000)
  })

  it('a sale posted again for its order fails its statement whole, even one that ends its transaction', async () => {
    const creator = await signupCreator(svc.api)
    const { orderId } = await paidSale(svc, creator, { price: 100 })
    const order = await svc.deps.db
      .selectFrom('orders')
      .select(['id', 'account_id', 'product_id', 'amount_cents', 'interest_cents'])
      .where('id', '=', orderId)
      .executeTakeFirstOrThrow()
    const postings = () =>
      svc.deps.db
        .selectFrom('ledger_postings')
        .select('id')
        .where('order_id', '=', orderId)
        .execute()
    expect(await postings()).toHaveLength(1)
    for (const endsTransaction of [false, true]) {
      const again = withTx(svc.deps.db, (tx) =>
        postSale(tx, svc.deps, order, false, [], { endsTransaction }),
      )
      await expect(again).rejects.toThrow('ledger: this fact was posted already')
    }
    expect(await postings()).toHaveLength(1)
    expect(await available(creator.accountId)).toBe(10000)
  })

  it('the database refuses to change or delete ledger entries and unbalanced postings', async () => {
    const db = svc.deps.db
    await expect(
      sql`UPDATE ledger_entries SET amount_cents = amount_cents + 1`.execute(db),
    ).rejects.toThrow(/append-only/)
    await expect(sql`DELETE FROM ledger_postings`.execute(db)).rejects.toThrow(/append-only/)
    await expect(sql`TRUNCATE ledger_entries CASCADE`.execute(db)).rejects.toThrow(/append-only/)
    const creator = await signupCreator(svc.api)
    const postingId = randomUUID()
    await expect(
      withTx(db, async (tx) => {
        await tx
          .insertInto('ledger_postings')
          .values({ id: postingId, kind: 'sale', order_id: null, created_at: new Date() })
          .execute()
      }),
    ).rejects.toThrow(/check constraint/)
    await expect(
      withTx(db, async (tx) => {
        await sql`INSERT INTO ledger_postings (id, kind, withdrawal_id, created_at)
          VALUES (${postingId}, 'withdrawal_settled', ${randomUUID()}, now())`.execute(tx)
        await sql`INSERT INTO ledger_entries (posting_id, book, account_id, amount_cents, created_at)
          VALUES (${postingId}, 'gateway', ${creator.accountId}, 100, now())`.execute(tx)
      }),
    ).rejects.toThrow(/does not balance/)
    // A balance row that disagrees with the seed's formula cannot be committed either.
    await expect(
      withTx(db, async (tx) => {
        await sql`INSERT INTO creator_balances (account_id, paid_cents) VALUES (${creator.accountId}, 100)`.execute(
          tx,
        )
      }),
    ).rejects.toThrow(/breaks available/)
    // Nor when the row is written twice: the first write's check leaves it to the second's.
    await expect(
      withTx(db, async (tx) => {
        await sql`INSERT INTO creator_balances (account_id, slot, paid_cents, available_cents)
          VALUES (${creator.accountId}, 3, 100, 100)`.execute(tx)
        await sql`UPDATE creator_balances SET paid_cents = paid_cents + 1
          WHERE account_id = ${creator.accountId} AND slot = 3`.execute(tx)
      }),
    ).rejects.toThrow(/breaks available/)
    expect(await ledgerTotals(db)).toEqual({ total: 0, worstPosting: 0 })
  })
})

describe(`balance endpoints: credentials and accounts (${engine})`, () => {
  it('needs a session or a key with read:payouts, and hides other accounts', async () => {
    const creator = await signupCreator(svc.api)
    const other = await signupCreator(svc.api)
    const noScope = await creator.key(['read:orders'])
    const key = await creator.key(['read:payouts'])

    const anonymous = await svc.api('GET', '/api/balance')
    expect(anonymous.status).toBe(401)
    expect(anonymous.body).toEqual({ success: false, error: 'Unauthorized' })
    const scoped = await svc.api('GET', '/api/balance', { key: noScope })
    expect(scoped.status).toBe(403)
    expect(scoped.body.error).toBe('Missing scope: read:payouts')
    for (const auth of [{ key }, { session: creator.session }]) {
      const foreign = await svc.api('GET', `/api/balance?tenant_id=${other.accountId}`, auth)
      expect(foreign.status).toBe(404)
      const own = await svc.api('GET', `/api/balance?tenant_id=${creator.accountId}`, auth)
      expect(own.status).toBe(200)
      expect(own.body.available).toBe(0)
    }
    expect((await svc.api('GET', '/api/balance', { key })).body.paid_total).toBe(0)

    expect((await svc.api('GET', '/api/coproducers/balance')).status).toBe(401)
    expect((await svc.api('GET', '/api/affiliates/balance', { key: noScope })).status).toBe(403)
    const copro = await svc.api('GET', '/api/coproducers/balance', { session: creator.session })
    expect(copro.body).toEqual({ available: 0, earned_total: 0, refunded_total: 0, withdrawn: 0 })
    const aff = await svc.api('GET', '/api/affiliates/balance', { key })
    expect(aff.body).toEqual({
      available: 0,
      paid_total: 0,
      rejected_total: 0,
      pending_count: 0,
      withdrawn: 0,
    })
  })
})
