import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { withTx } from '../../../src/kit/db.ts'
import {
  holdWithdrawal,
  lockAvailable,
  releaseWithdrawal,
} from '../../../src/modules/ledger/service.ts'
import { type Creator, signupCreator } from '../../setup/actors.ts'
import { ledgerTotals, paidSale } from '../../setup/ledger.ts'
import { checkout, createProduct, pay } from '../../setup/purchase.ts'
import { engine, startTestService, type TestService } from '../../setup/service.ts'

let svc: TestService
beforeAll(async () => {
  svc = await startTestService()
})
afterAll(() => svc?.stop())

const enroll = (key: string, productId: string, email: string, split: number) =>
  svc.api('POST', `/api/v1/products/${productId}/coproducers`, {
    key,
    body: { email, split_percent: split },
  })

async function creatorWithKey(name?: string) {
  const creator = await signupCreator(svc.api, name)
  const key = await creator.key(['write:products', 'read:products', 'read:payouts'])
  return { creator, key }
}

const creatorBalance = (c: { creator: Creator; key: string }) =>
  svc
    .api('GET', `/api/balance?tenant_id=${c.creator.accountId}`, { key: c.key })
    .then((r) => r.body)

describe(`co-producers: enrolment (${engine})`, () => {
  it('invites, refuses a second enrolment and splits beyond 100 %, word for word', async () => {
    const a = await creatorWithKey('Beto Produtor')
    const product = await createProduct(svc.api, a.key, { name: 'Método X' })
    const first = await enroll(a.key, product.id, 'Socia@Example.com', 30)
    expect(first.status).toBe(201)
    expect(first.body.data).toMatchObject({
      id: expect.any(String),
      user_id: expect.any(String),
      split_percent: 30,
      email: 'socia@example.com',
    })
    const mails = (await svc.api('GET', '/api/dev/emails?to=socia@example.com')).body.data
    expect(mails[0].subject).toBe('Convite: seja coprodutor(a) de Método X')
    expect(mails[0].text).toContain('Beto Produtor convidou você para ser coprodutor(a)')

    const again = await enroll(a.key, product.id, 'socia@example.com', 10)
    expect(again.status).toBe(409)
    expect(again.body).toEqual({ error: 'Este coprodutor já está cadastrado neste produto' })
    const over = await enroll(a.key, product.id, 'terceiro@example.com', 70.01)
    expect(over.status).toBe(400)
    expect(over.body).toEqual({
      error: 'A soma das divisões com coprodutores não pode passar de 100%',
    })
    // Nothing of the refused enrolment was kept: no user, no invitation.
    expect((await svc.api('GET', '/api/dev/emails?to=terceiro@example.com')).body.data).toEqual([])
    const exact = await enroll(a.key, product.id, 'terceiro@example.com', 70)
    expect(exact.status).toBe(201)
    const list = await svc.api('GET', `/api/v1/products/${product.id}/coproducers`, { key: a.key })
    expect(list.body.data.map((c: { split_percent: number }) => c.split_percent)).toEqual([70, 30])
  })

  it('two concurrent enrolments that together pass 100 %: one is refused', async () => {
    const a = await creatorWithKey()
    const product = await createProduct(svc.api, a.key)
    const results = await Promise.all([
      enroll(a.key, product.id, 'p1@example.com', 60),
      enroll(a.key, product.id, 'p2@example.com', 60),
    ])
    expect(results.map((r) => r.status).sort()).toEqual([201, 400])
  })
})

describe(`co-producers and affiliates share each sale (${engine})`, () => {
  it('commission first, splits of the rest, the creator keeps the remainder', async () => {
    const a = await creatorWithKey()
    const product = await createProduct(svc.api, a.key) // R$ 97,90
    await enroll(a.key, product.id, 'cop1@example.com', 30)
    await enroll(a.key, product.id, 'cop2@example.com', 20)
    const affiliate = await svc.api('POST', `/api/v1/products/${product.id}/affiliates`, {
      key: a.key,
      body: { email: 'aff1@example.com', commission_percent: 10 },
    })
    const created = await checkout(svc.api, product.id, {
      affiliate_code: affiliate.body.data.code,
    })
    await pay(svc.api, created.body.charge_id)
    // commission 9.79; base 88.11; splits 26.433 → 26.43 and 17.622 → 17.62; creator 44.06
    expect(await creatorBalance(a)).toEqual({
      available: 44.06,
      paid_total: 97.9,
      refunded_total: 0,
      withdrawn_total: 0,
      coproducer_owed: 44.05,
      affiliate_owed: 9.79,
    })
    const shares = await svc.deps.db
      .selectFrom('order_shares')
      .select(['kind', 'bps', 'amount_cents', 'status'])
      .where('order_id', '=', created.body.order_id)
      .orderBy('amount_cents')
      .execute()
    expect(shares).toEqual([
      { kind: 'commission', bps: 1000, amount_cents: 979, status: 'paid' },
      { kind: 'split', bps: 2000, amount_cents: 1762, status: 'paid' },
      { kind: 'split', bps: 3000, amount_cents: 2643, status: 'paid' },
    ])
  })

  it('a co-producer withdrawal is charged to the oldest earnings first, account by account', async () => {
    const x = await creatorWithKey()
    const y = await creatorWithKey()
    const px = await createProduct(svc.api, x.key, { plans: [{ name: 'U', price: 100 }] })
    const py = await createProduct(svc.api, y.key, { plans: [{ name: 'U', price: 200 }] })
    const enrolled = await enroll(x.key, px.id, 'duda.cop@example.com', 50)
    await enroll(y.key, py.id, 'duda.cop@example.com', 25)
    const userId: string = enrolled.body.data.user_id
    await paidSale(svc, x.creator, { key: x.key, productId: px.id }) // Duda earns 50,00 in X
    await paidSale(svc, y.creator, { key: y.key, productId: py.id }) // then 50,00 in Y
    const holder = { kind: 'coproducer' as const, userId }
    const hold = (amountCents: number) =>
      withTx(svc.deps.db, async (tx) => {
        const withdrawalId = randomUUID()
        await lockAvailable(tx, holder)
        await holdWithdrawal(tx, svc.deps, { holder, withdrawalId, amountCents })
        return withdrawalId
      })

    expect(await withTx(svc.deps.db, (tx) => lockAvailable(tx, holder))).toBe(10_000)
    const first = await hold(3000)
    expect(await creatorBalance(x)).toMatchObject({
      withdrawn_total: 30,
      coproducer_owed: 20,
      available: 50,
    })
    expect(await creatorBalance(y)).toMatchObject({ withdrawn_total: 0, coproducer_owed: 50 })
    await hold(4000) // 20,00 left in X, then 20,00 from Y
    expect(await creatorBalance(x)).toMatchObject({ withdrawn_total: 50, coproducer_owed: 0 })
    expect(await creatorBalance(y)).toMatchObject({
      withdrawn_total: 20,
      coproducer_owed: 30,
      available: 150,
    })
    await expect(hold(3001)).rejects.toThrow('Saldo insuficiente')

    await withTx(svc.deps.db, (tx) => releaseWithdrawal(tx, svc.deps, { withdrawalId: first }))
    expect(await creatorBalance(x)).toMatchObject({ withdrawn_total: 20, coproducer_owed: 30 })
    const mine = await svc.api('GET', '/api/coproducers/balance', {
      key: x.key, // a key acts as its creator, who is not this co-producer
    })
    expect(mine.body.earned_total).toBe(0)
    const duda = await svc.deps.db
      .selectFrom('coproducer_balance_view')
      .selectAll()
      .where('user_id', '=', userId)
      .executeTakeFirstOrThrow()
    expect(duda).toMatchObject({ earned_total: 10_000, withdrawn: 4000, available: 6000 })
    expect(await ledgerTotals(svc.deps.db)).toEqual({ total: 0, worstPosting: 0 })
  })
})
