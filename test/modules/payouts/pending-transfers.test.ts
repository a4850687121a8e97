// A PIX transfer the bank is still processing (SPEC §5a: Asaas answers PENDING until
// TRANSFER_DONE / TRANSFER_FAILED): the sandbox's slow bank (a key at @processando.example)
// holds it for 10 minutes. The withdrawal stays approved and shows its transfer on its way, can
// no longer be rejected, is never transferred twice, and reconciliation records the end.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { signupCreator } from '../../setup/actors.ts'
import { paidSale } from '../../setup/ledger.ts'
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
  svc = await startTestService(ADMIN)
  admin = await adminSession(svc.api)
})
afterAll(() => svc?.stop())

const advance = (seconds: number) =>
  svc.api('POST', '/sandbox/clock/advance', { body: { seconds } })

describe(`a transfer on its way (${engine})`, () => {
  it('stays approved and in progress until the bank finishes; reconciliation then pays it', async () => {
    const creator = await signupCreator(svc.api)
    await paidSale(svc, creator, { price: 90 })
    await verifiedPixKey(svc.api, admin, creator, {
      pix_key: 'saque@processando.example',
      pix_key_type: 'email',
    })
    const id = (await withdraw(svc.api, creator, 90)).body.withdrawal_id as string
    await review(svc.api, admin, id, 'approve')

    const paying = await review(svc.api, admin, id, 'pay')
    expect(paying.status).toBe(200)
    expect(paying.body.data).toMatchObject({
      status: 'approved',
      transfer_in_progress: true,
      paid_at: null,
    })
    const mine = await svc.api('GET', '/api/withdrawals', { session: creator.session })
    expect(mine.body.data[0]).toMatchObject({ id, status: 'approved', transfer_in_progress: true })
    // What the back office renders its row from ("transferência Pix em andamento").
    const history = await svc.api('GET', '/api/admin/withdrawal-history?status=approved', {
      session: admin,
    })
    const row = history.body.data.find((w: { id: string }) => w.id === id)
    expect(row).toMatchObject({ status: 'approved', transfer_in_progress: true })

    // On its way: not rejectable, and paying again asks about the same transfer.
    const reject = await review(svc.api, admin, id, 'reject', { admin_note: 'Desistir' })
    expect(reject.status).toBe(409)
    const again = await review(svc.api, admin, id, 'pay')
    expect(again.body.data).toMatchObject({ status: 'approved', transfer_in_progress: true })

    await advance(3 * 60)
    await svc.workers!.runOnce('payments.reconcile')
    const check = await svc.deps.db
      .selectFrom('gateway_checks')
      .select(['status', 'note'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow()
    expect(check).toEqual({ status: 'pending', note: 'transfer still on its way' })
    expect(await balanceOf(svc.api, creator)).toMatchObject({ available: 0, withdrawn_total: 90 })

    await advance(10 * 60)
    await svc.workers!.runOnce('payments.reconcile')
    const done = await svc.api('GET', '/api/withdrawals', { session: creator.session })
    expect(done.body.data[0]).toMatchObject({
      id,
      status: 'paid',
      paid_at: expect.any(String),
      transfer_in_progress: false,
    })
    const transfers = await svc.deps.db
      .selectFrom('sandbox_transfers')
      .select('id')
      .where('reference', '=', id)
      .execute()
    expect(transfers).toHaveLength(1)
    expect(await balanceOf(svc.api, creator)).toMatchObject({ available: 0, withdrawn_total: 90 })
  })
})
