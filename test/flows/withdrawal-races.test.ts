// Withdrawals under concurrency, over HTTP: many requests of one creator (or of one affiliate
// and co-producer, whose balances are striped like creators') at once, a refund racing a
// withdrawal of the same money, and a chargeback after the money was set aside.
// On PostgreSQL these really run at once (a pool of connections); PGlite serializes them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type Creator, signupCreator } from '../setup/actors.ts'
import { expectBooksExact, paidSale } from '../setup/ledger.ts'
import {
  ADMIN,
  adminSession,
  balanceOf,
  review,
  verifiedPixKey,
  withdraw,
} from '../setup/payouts.ts'
import { createProduct } from '../setup/purchase.ts'
import { engine, type Session, startTestService, type TestService } from '../setup/service.ts'

let svc: TestService
let admin: Session
beforeAll(async () => {
  svc = await startTestService(ADMIN)
  admin = await adminSession(svc.api)
})
afterAll(() => svc?.stop())

const available = async (creator: Creator) => (await balanceOf(svc.api, creator)).available
const books = (creator: Creator) =>
  expectBooksExact(svc.deps.db, { accounts: [creator.accountId], affiliates: [], coproducers: [] })

async function creatorWithKey() {
  const creator = await signupCreator(svc.api)
  await verifiedPixKey(svc.api, admin, creator)
  const key = await creator.key(['write:products', 'refunds:create'])
  return { creator, key }
}

describe(`withdrawal races (${engine})`, () => {
  it('20 simultaneous withdrawals of one creator: exactly one 201, the others 409 or 400', async () => {
    const { creator, key } = await creatorWithKey()
    await paidSale(svc, creator, { key, price: 300 })
    // Amounts from 20 to 400: some fit the balance, some do not; only one may become pending.
    const amounts = Array.from({ length: 20 }, (_, i) => 20 * (i + 1))
    const answers = await Promise.all(amounts.map((amount) => withdraw(svc.api, creator, amount)))
    const created = answers.filter((a) => a.status === 201)
    expect(created).toHaveLength(1)
    for (const refused of answers.filter((a) => a.status !== 201)) {
      expect([409, 400]).toContain(refused.status)
      expect(['Você já tem um saque pendente', 'Saldo insuficiente']).toContain(refused.body.error)
    }
    const winner = amounts[answers.indexOf(created[0]!)]!
    expect(await available(creator)).toBe(300 - winner)
    const pending = await svc.api('GET', '/api/withdrawals?status=pending', {
      session: creator.session,
    })
    expect(pending.body.data).toHaveLength(1)
    await books(creator)
  })

  it('20 simultaneous withdrawals of one affiliate and 20 of the same user as co-producer, after sales through the link at once: exactly one 200 each', async () => {
    const { creator, key } = await creatorWithKey()
    const partner = await signupCreator(svc.api, 'Parceira')
    await verifiedPixKey(svc.api, admin, partner)
    const productId = (await createProduct(svc.api, key, { plans: [{ name: 'U', price: 100 }] })).id
    const affiliate = await svc.api('POST', `/api/v1/products/${productId}/affiliates`, {
      key,
      body: { email: partner.email, commission_percent: 20 },
    })
    await svc.api('POST', `/api/v1/products/${productId}/coproducers`, {
      key,
      body: { email: partner.email, split_percent: 25 },
    })
    // Six sales at once through the link (striped slots): R$ 20 of each to either balance.
    await Promise.all(
      Array.from({ length: 6 }, () =>
        paidSale(svc, creator, {
          key,
          productId,
          body: { affiliate_code: affiliate.body.data.code },
        }),
      ),
    )
    const amounts = Array.from({ length: 20 }, (_, i) => 20 * (i + 1))
    const race = (role: 'affiliates' | 'coproducers') =>
      Promise.all(
        amounts.map((amount) =>
          svc.api('POST', `/api/${role}/withdraw`, {
            session: partner.session,
            body: { amount },
          }),
        ),
      )
    const [asAffiliate, asCoproducer] = await Promise.all([race('affiliates'), race('coproducers')])
    for (const [role, answers] of [
      ['affiliates', asAffiliate],
      ['coproducers', asCoproducer],
    ] as const) {
      const accepted = answers.filter((a) => a.status === 200)
      expect(accepted).toHaveLength(1)
      for (const refused of answers.filter((a) => a.status !== 200)) {
        expect(['Você já tem um saque pendente', 'Saldo insuficiente']).toContain(
          refused.body.error,
        )
      }
      const winner = amounts[answers.indexOf(accepted[0]!)]!
      expect(accepted[0]!.body.balance_before).toBe(120)
      const after = await svc.api('GET', `/api/${role}/balance`, { session: partner.session })
      expect(after.body).toMatchObject({ available: 120 - winner, withdrawn: winner })
    }
    await expectBooksExact(svc.deps.db, {
      accounts: [creator.accountId],
      affiliates: [partner.userId],
      coproducers: [partner.userId],
    })
  })

  it('a refund racing a withdrawal of the same money: never both', async () => {
    const { creator, key } = await creatorWithKey()
    for (let round = 0; round < 4; round++) {
      const { orderId } = await paidSale(svc, creator, { key, price: 100 })
      expect(await available(creator)).toBe(100)
      const [refund, withdrawal] = await Promise.all([
        svc.api('POST', `/api/v1/orders/${orderId}/refund`, { key, body: { reason: 'Corrida' } }),
        withdraw(svc.api, creator, 100),
      ])
      const outcome = [refund.status, withdrawal.status]
      expect([
        [201, 400],
        [400, 201],
      ]).toContainEqual(outcome)
      if (refund.status === 400) {
        expect(refund.body.error).toBe('Saldo insuficiente para reembolsar este pedido')
      } else {
        expect(withdrawal.body.error).toBe('Saldo insuficiente')
      }
      expect(await available(creator)).toBe(0)
      // Clear the pending withdrawal (if any) by paying it, so the next round starts clean.
      if (withdrawal.status === 201) {
        await review(svc.api, admin, withdrawal.body.withdrawal_id, 'approve')
        expect((await review(svc.api, admin, withdrawal.body.withdrawal_id, 'pay')).status).toBe(
          200,
        )
      }
    }
    await books(creator)
  })

  it('two pays and a reject at once: one PIX transfer at most, and the books agree with it', async () => {
    const { creator, key } = await creatorWithKey()
    for (let round = 0; round < 3; round++) {
      await paidSale(svc, creator, { key, price: 50 })
      const id = (await withdraw(svc.api, creator, 50)).body.withdrawal_id
      await review(svc.api, admin, id, 'approve')
      await Promise.all([
        review(svc.api, admin, id, 'pay'),
        review(svc.api, admin, id, 'pay'),
        review(svc.api, admin, id, 'reject', { admin_note: 'Corrida' }),
      ])
      const [final] = (await svc.api('GET', '/api/withdrawals', { session: creator.session })).body
        .data
      expect(final.id).toBe(id)
      const transfers = await svc.deps.db
        .selectFrom('sandbox_transfers')
        .select('id')
        .where('reference', '=', id)
        .execute()
      expect(transfers).toHaveLength(final.status === 'paid' ? 1 : 0)
      expect(['paid', 'rejected']).toContain(final.status)
      expect(await available(creator)).toBe(final.status === 'paid' ? 0 : 50)
      if (final.status === 'rejected') {
        const again = (await withdraw(svc.api, creator, 50)).body.withdrawal_id
        await review(svc.api, admin, again, 'approve')
        await review(svc.api, admin, again, 'pay')
      }
    }
    await books(creator)
  })

  it('a chargeback after the request leaves the balance negative: approving and paying are refused, rejecting is not', async () => {
    const { creator, key } = await creatorWithKey()
    const { chargeId } = await paidSale(svc, creator, { key, price: 100 })
    const id = (await withdraw(svc.api, creator, 100)).body.withdrawal_id
    const chargeback = await svc.api('POST', `/sandbox/charges/${chargeId}/chargeback`)
    expect(chargeback.status).toBe(200)
    expect(await available(creator)).toBe(-100)
    const approve = await review(svc.api, admin, id, 'approve')
    expect(approve.status).toBe(409)
    expect(approve.body.error).toMatch(/saldo .* ficou negativo/)
    const rejected = await review(svc.api, admin, id, 'reject', { admin_note: 'Chargeback' })
    expect(rejected.status).toBe(200)
    expect(await available(creator)).toBe(0)
    await books(creator)
  })
})
