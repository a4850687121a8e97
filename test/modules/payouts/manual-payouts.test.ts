// PAYOUT_PROVIDER=manual (SPEC §5a): nothing is transferred automatically; the admin sends the
// PIX by hand and pays the withdrawal with the PIX's end-to-end id, validated, stored, shown.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type Creator, signupCreator } from '../../setup/actors.ts'
import { expectBooksExact, paidSale } from '../../setup/ledger.ts'
import {
  ADMIN,
  adminSession,
  balanceOf,
  review,
  verifiedPixKey,
  withdraw,
} from '../../setup/payouts.ts'
import { engine, type Session, startTestService, type TestService } from '../../setup/service.ts'

let svc: TestService
let admin: Session
beforeAll(async () => {
  svc = await startTestService({ ...ADMIN, PAYOUT_PROVIDER: 'manual' })
  admin = await adminSession(svc.api)
})
afterAll(() => svc?.stop())

const E2E = 'E0000000020261124223015a1B2c3D4e'
const OTHER_E2E = 'E6074694820261124231500XYZ0001abc'.slice(0, 32)

/** A creator with R$ `price` available, a verified key and an approved withdrawal of it all. */
async function approvedWithdrawal(price: number): Promise<{ creator: Creator; id: string }> {
  const creator = await signupCreator(svc.api)
  await paidSale(svc, creator, { price })
  await verifiedPixKey(svc.api, admin, creator)
  const id = (await withdraw(svc.api, creator, price)).body.withdrawal_id as string
  expect((await review(svc.api, admin, id, 'approve')).status).toBe(200)
  return { creator, id }
}

describe(`manual payouts (${engine})`, () => {
  it('pays with the end-to-end id the admin typed: missing or malformed is a 400 naming it', async () => {
    const { creator, id } = await approvedWithdrawal(120)

    const missing = await review(svc.api, admin, id, 'pay')
    expect(missing.status).toBe(400)
    expect(missing.body).toEqual({
      success: false,
      error: expect.stringContaining('end_to_end_id'),
    })
    const blank = await review(svc.api, admin, id, 'pay', { end_to_end_id: '  ' })
    expect(blank.status).toBe(400)
    for (const bad of [
      'E0000000020261124223015a1B2c3D4', // 31 characters
      'D0000000020261124223015a1B2c3D4e', // not E
      'E0000000020261324223015a1B2c3D4e', // month 13
      'E0000000020261131223015a1B2c3D4e', // 31 November
      'E0000000020261124246015a1B2c3D4e', // 24:60
      'E0000000020261124223015a1B2c3D4-', // a sign in the sequence
      'E0000000019991124223015a1B2c3D4e', // before PIX existed
    ]) {
      const res = await review(svc.api, admin, id, 'pay', { end_to_end_id: bad })
      expect(res.status, bad).toBe(400)
      expect(res.body.error, bad).toMatch(/^end_to_end_id inválido/)
    }
    // Nothing moved while the id was refused.
    const still = await svc.api('GET', '/api/admin/withdrawals?status=approved', { session: admin })
    expect(still.body.data.map((w: { id: string }) => w.id)).toContain(id)
    expect(await balanceOf(svc.api, creator)).toMatchObject({ available: 0, withdrawn_total: 120 })

    const paid = await review(svc.api, admin, id, 'pay', { end_to_end_id: ` ${E2E} ` })
    expect(paid.status).toBe(200)
    expect(paid.body.data).toMatchObject({
      id,
      status: 'paid',
      paid_at: expect.any(String),
      end_to_end_id: E2E,
      transfer_in_progress: false,
    })
    // The same id again answers the same; the creator sees it in their own list.
    const again = await review(svc.api, admin, id, 'pay', { end_to_end_id: E2E })
    expect(again.status).toBe(200)
    expect(again.body.data).toMatchObject({ status: 'paid', end_to_end_id: E2E })
    const mine = await svc.api('GET', '/api/withdrawals', { session: creator.session })
    expect(mine.body.data[0]).toMatchObject({ id, status: 'paid', end_to_end_id: E2E })
    // No provider was asked for anything.
    const transfers = await svc.deps.db
      .selectFrom('sandbox_transfers')
      .select('id')
      .where('reference', '=', id)
      .execute()
    expect(transfers).toEqual([])
    await expectBooksExact(svc.deps.db, {
      accounts: [creator.accountId],
      affiliates: [],
      coproducers: [],
    })
  })

  it('one PIX pays one withdrawal: an id recorded on another is a 409; a paid one keeps its id', async () => {
    const first = await approvedWithdrawal(40)
    const second = await approvedWithdrawal(50)
    expect(
      (await review(svc.api, admin, first.id, 'pay', { end_to_end_id: OTHER_E2E })).status,
    ).toBe(200)
    const reused = await review(svc.api, admin, second.id, 'pay', { end_to_end_id: OTHER_E2E })
    expect(reused.status).toBe(409)
    expect(reused.body.error).toBe('Este end_to_end_id já foi registrado em outro saque')
    const changed = await review(svc.api, admin, first.id, 'pay', { end_to_end_id: E2E })
    expect(changed.status).toBe(409)
    expect(await balanceOf(svc.api, second.creator)).toMatchObject({ withdrawn_total: 50 })
    const listed = await svc.api('GET', '/api/admin/withdrawals?status=approved', {
      session: admin,
    })
    expect(listed.body.data.find((w: { id: string }) => w.id === second.id)).toMatchObject({
      end_to_end_id: null,
      transfer_in_progress: false,
    })
  })

  it('a pending withdrawal cannot be paid, whatever the id', async () => {
    const creator = await signupCreator(svc.api)
    await paidSale(svc, creator, { price: 30 })
    await verifiedPixKey(svc.api, admin, creator)
    const id = (await withdraw(svc.api, creator, 30)).body.withdrawal_id
    const res = await review(svc.api, admin, id, 'pay', {
      end_to_end_id: 'E1234567820260101000000abcdefghijk'.slice(0, 32),
    })
    expect(res.status).toBe(409)
    expect(res.body.error).toBe('Este saque está pendente e não pode ser pago')
  })

  // The page itself (the field, the confirmation with the key) is driven in Chromium by
  // test/web/admin-manual.test.ts; here, what it is built from.
  it('the back office is told to ask for the end-to-end id, and gets the key in full to type it', async () => {
    const { id } = await approvedWithdrawal(25)
    const res = await fetch(`${svc.url}/admin`, { headers: { cookie: admin.cookie } })
    expect(res.status).toBe(200)
    expect(await res.text()).toContain('{"automatic":false}')
    const history = await svc.api('GET', '/api/admin/withdrawal-history?status=approved', {
      session: admin,
    })
    const row = history.body.data.find((w: { id: string }) => w.id === id)
    expect(row).toMatchObject({ pix_key_full: '52998224725' })
  })
})

describe(`automatic payouts keep an empty pay body (${engine})`, () => {
  it('an end-to-end id given to an automatic provider is a 400, and nothing moves', async () => {
    const sandbox = await startTestService(ADMIN)
    try {
      const session = await adminSession(sandbox.api)
      const creator = await signupCreator(sandbox.api)
      await paidSale(sandbox, creator, { price: 20 })
      await verifiedPixKey(sandbox.api, session, creator)
      const id = (await withdraw(sandbox.api, creator, 20)).body.withdrawal_id
      await review(sandbox.api, session, id, 'approve')
      const page = await (
        await fetch(`${sandbox.url}/admin`, { headers: { cookie: session.cookie } })
      ).text()
      expect(page).toContain('{"automatic":true}')
      const res = await review(sandbox.api, session, id, 'pay', { end_to_end_id: E2E })
      expect(res.status).toBe(400)
      expect(res.body.error).toMatch(/^end_to_end_id só é informado em pagamentos manuais/)
      const paid = await review(sandbox.api, session, id, 'pay')
      expect(paid.body.data).toMatchObject({ status: 'paid', end_to_end_id: null })
    } finally {
      await sandbox.stop()
    }
  })
})
