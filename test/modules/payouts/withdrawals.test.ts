// Withdrawals over HTTP (SPEC §9): the seed's checks in order with its exact messages, the
// lifecycle with the admin, the sandbox PIX transfer, e-mails and the ledger kept exact.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type Creator, signupCreator } from '../../setup/actors.ts'
import { expectBooksExact, ledgerTotals, paidSale } from '../../setup/ledger.ts'
import {
  ADMIN,
  adminSession,
  balanceOf,
  review,
  verifiedPixKey,
  withdraw,
} from '../../setup/payouts.ts'
import {
  engine,
  eventually,
  type Session,
  startTestService,
  type TestService,
} from '../../setup/service.ts'

let svc: TestService
let admin: Session
beforeAll(async () => {
  svc = await startTestService(ADMIN)
  admin = await adminSession(svc.api)
})
afterAll(() => svc?.stop())

const balance = (creator: Creator) => balanceOf(svc.api, creator)
const mailsTo = async (email: string) =>
  (await svc.api('GET', `/api/dev/emails?to=${encodeURIComponent(email)}`)).body.data as {
    subject: string
    text: string
  }[]

/** A creator with R$ `price` available from one paid sale. */
async function sellingCreator(price = 100) {
  const creator = await signupCreator(svc.api)
  await paidSale(svc, creator, { price })
  return creator
}

describe(`withdrawals (${engine})`, () => {
  it('checks in the SPEC order with the seed’s messages, word for word', async () => {
    const creator = await sellingCreator(100)
    const stranger = await signupCreator(svc.api)
    const expectRefusal = async (
      res: Awaited<ReturnType<typeof withdraw>>,
      status: number,
      error: string,
    ) => {
      expect(res.status).toBe(status)
      expect(res.body).toEqual({ success: false, error })
    }

    // 1. amount ≥ 20.00 comes first, even before the account check and the key.
    await expectRefusal(
      await svc.api('POST', '/api/withdrawals', {
        session: stranger.session,
        body: { tenant_id: creator.accountId, amount: 19.99 },
      }),
      400,
      'O valor mínimo para saque é R$ 20,00',
    )
    // 2. someone else's account: 404, whatever the key.
    await expectRefusal(
      await svc.api('POST', '/api/withdrawals', {
        session: stranger.session,
        body: { tenant_id: creator.accountId, amount: 20 },
      }),
      404,
      'Account not found',
    )
    // 3. no key, 4. pending key, 5. rejected key.
    await expectRefusal(
      await withdraw(svc.api, creator, 20),
      400,
      'Cadastre uma chave Pix antes de solicitar saque',
    )
    await svc.api('PATCH', '/api/profile/pix', {
      session: creator.session,
      body: { pix_key: 'criadora@example.com', pix_key_type: 'email' },
    })
    await expectRefusal(
      await withdraw(svc.api, creator, 20),
      403,
      'Sua chave Pix está aguardando verificação',
    )
    await svc.api('POST', `/api/admin/pix-keys/${creator.userId}/reject`, {
      session: admin,
      body: { reason: 'titular diferente' },
    })
    await expectRefusal(
      await withdraw(svc.api, creator, 20),
      403,
      'Sua chave Pix foi rejeitada: titular diferente',
    )
    await verifiedPixKey(svc.api, admin, creator)
    // 6. balance (nothing pending yet), then 7. one pending at a time.
    await expectRefusal(await withdraw(svc.api, creator, 100.01), 400, 'Saldo insuficiente')
    const first = await withdraw(svc.api, creator, 30)
    expect(first.status).toBe(201)
    expect(first.body).toEqual({
      success: true,
      withdrawal_id: expect.any(String),
      balance_before: 100,
    })
    await expectRefusal(await withdraw(svc.api, creator, 20), 409, 'Você já tem um saque pendente')
    // A pending withdrawal is checked before the balance.
    await expectRefusal(await withdraw(svc.api, creator, 500), 409, 'Você já tem um saque pendente')
    expect(await balance(creator)).toMatchObject({ available: 70, withdrawn_total: 30 })
    // Bad amounts are 400s too.
    for (const amount of [20.001, -20, '20', null]) {
      const res = await svc.api('POST', '/api/withdrawals', {
        session: creator.session,
        body: { tenant_id: creator.accountId, amount },
      })
      expect(res.status, String(amount)).toBe(400)
      expect(res.body.success).toBe(false)
    }
  })

  it('pending → approved → paid: the sandbox makes the PIX transfer once; e-mails tell each step', async () => {
    const creator = await sellingCreator(250)
    await verifiedPixKey(svc.api, admin, creator, {
      pix_key: '7D9F0335-8DCC-4054-9BF9-0DBD61D36690',
      pix_key_type: 'random',
    })
    const { withdrawal_id: id } = (await withdraw(svc.api, creator, 200)).body
    expect((await review(svc.api, admin, id, 'pay')).body).toEqual({
      success: false,
      error: 'Este saque está pendente e não pode ser pago',
    })
    const approved = await review(svc.api, admin, id, 'approve')
    expect(approved.status).toBe(200)
    expect(approved.body.data).toMatchObject({
      id,
      role: 'creator',
      tenant_id: creator.accountId,
      status: 'approved',
      amount: 200,
      pix_key: '7d9f****-****-****-****-********6690',
    })
    expect((await review(svc.api, admin, id, 'approve')).status).toBe(409)

    const [paid, paidAgain] = [
      await review(svc.api, admin, id, 'pay'),
      await review(svc.api, admin, id, 'pay'),
    ]
    expect(paid.status).toBe(200)
    expect(paid.body.data).toMatchObject({ status: 'paid', paid_at: expect.any(String) })
    expect(paidAgain.body.data.status).toBe('paid')
    const transfers = await svc.deps.db
      .selectFrom('sandbox_transfers')
      .selectAll()
      .where('reference', '=', id)
      .execute()
    expect(transfers).toEqual([
      expect.objectContaining({
        amount_cents: 20_000,
        pix_key: '7d9f0335-8dcc-4054-9bf9-0dbd61d36690',
        status: 'completed',
      }),
    ])
    const rejectPaid = await review(svc.api, admin, id, 'reject', { admin_note: 'tarde demais' })
    expect(rejectPaid.status).toBe(409)
    expect(await balance(creator)).toMatchObject({ available: 50, withdrawn_total: 200 })

    const subjects = await eventually(async () => {
      const mails = (await mailsTo(creator.email)).map((m) => m.subject)
      return mails.length >= 3 && mails
    })
    expect(subjects).toEqual(
      expect.arrayContaining([
        'Pedido de saque recebido: R$ 200,00',
        'Saque aprovado: R$ 200,00',
        'Saque pago: R$ 200,00',
      ]),
    )
    const mine = await svc.api('GET', '/api/withdrawals', { session: creator.session })
    expect(mine.body.data.map((w: { id: string }) => w.id)).toEqual([id])
    await expectBooksExact(svc.deps.db, {
      accounts: [creator.accountId],
      affiliates: [],
      coproducers: [],
    })
  })

  it('a rejection, from pending or approved, gives the amount back; the reason is in admin_note', async () => {
    const creator = await sellingCreator(100)
    await verifiedPixKey(svc.api, admin, creator)
    const first = (await withdraw(svc.api, creator, 60)).body.withdrawal_id
    const noNote = await review(svc.api, admin, first, 'reject', {})
    expect(noNote.status).toBe(400)
    const rejected = await review(svc.api, admin, first, 'reject', {
      admin_note: 'Dados bancários divergentes',
    })
    expect(rejected.body.data).toMatchObject({
      status: 'rejected',
      admin_note: 'Dados bancários divergentes',
    })
    expect(await balance(creator)).toMatchObject({ available: 100, withdrawn_total: 0 })
    expect((await review(svc.api, admin, first, 'approve')).status).toBe(409)

    const second = (await withdraw(svc.api, creator, 100)).body.withdrawal_id
    await review(svc.api, admin, second, 'approve')
    await review(svc.api, admin, second, 'reject', { admin_note: 'Suspeita de fraude' })
    expect(await balance(creator)).toMatchObject({ available: 100, withdrawn_total: 0 })
    const listed = await svc.api('GET', '/api/admin/withdrawals?status=rejected', {
      session: admin,
    })
    expect(listed.body.data.map((w: { id: string }) => w.id)).toEqual(
      expect.arrayContaining([first, second]),
    )
    expect(listed.body.data.every((w: { status: string }) => w.status === 'rejected')).toBe(true)
    const mails = await mailsTo(creator.email)
    expect(mails.some((m) => m.text.includes('Motivo: Suspeita de fraude'))).toBe(true)
    await expectBooksExact(svc.deps.db, {
      accounts: [creator.accountId],
      affiliates: [],
      coproducers: [],
    })
  })

  it('a transfer the bank refuses rejects the withdrawal with the reason and gives the money back', async () => {
    const creator = await sellingCreator(80)
    await verifiedPixKey(svc.api, admin, creator, {
      pix_key: 'conta.encerrada@recusada.example',
      pix_key_type: 'email',
    })
    const id = (await withdraw(svc.api, creator, 80)).body.withdrawal_id
    await review(svc.api, admin, id, 'approve')
    const paid = await review(svc.api, admin, id, 'pay')
    expect(paid.status).toBe(200)
    expect(paid.body.data).toMatchObject({
      status: 'rejected',
      admin_note:
        'A transferência Pix falhou: A chave Pix não pertence a uma conta ativa no banco de destino',
    })
    expect(await balance(creator)).toMatchObject({ available: 80, withdrawn_total: 0 })
  })

  it('an unknown transfer answer is a 502: still approved, no longer rejectable, and paying again makes no second transfer', async () => {
    const creator = await sellingCreator(60)
    await verifiedPixKey(svc.api, admin, creator, {
      pix_key: 'rede@instavel.example',
      pix_key_type: 'email',
    })
    const id = (await withdraw(svc.api, creator, 60)).body.withdrawal_id
    await review(svc.api, admin, id, 'approve')
    const lost = await review(svc.api, admin, id, 'pay')
    expect(lost.status).toBe(502)
    expect(lost.body.error).toMatch(/^Não foi possível confirmar a transferência Pix/)
    const reject = await review(svc.api, admin, id, 'reject', { admin_note: 'Desistir' })
    expect(reject.body).toEqual({
      success: false,
      error: 'A transferência Pix deste saque já foi iniciada; conclua o pagamento',
    })
    const paid = await review(svc.api, admin, id, 'pay')
    expect(paid.body.data.status).toBe('paid')
    const transfers = await svc.deps.db
      .selectFrom('sandbox_transfers')
      .select('id')
      .where('reference', '=', id)
      .execute()
    expect(transfers).toHaveLength(1)
    expect(await balance(creator)).toMatchObject({ available: 0, withdrawn_total: 60 })
  })

  it('co-producers and affiliates withdraw from their own balance (200), charged to the accounts that owe it', async () => {
    const creator = await signupCreator(svc.api)
    const partner = await signupCreator(svc.api, 'Parceira')
    const key = await creator.key(['write:products'])
    const product = (
      await svc.api('POST', '/api/v1/products', {
        key,
        body: {
          name: 'Curso',
          slug: `curso-${Date.now()}`,
          billing: 'one_time',
          plans: [{ name: 'U', price: 200 }],
        },
      })
    ).body.data
    await svc.api('POST', `/api/v1/products/${product.id}/coproducers`, {
      key,
      body: { email: partner.email, split_percent: 50 },
    })
    const affiliate = (
      await svc.api('POST', `/api/v1/products/${product.id}/affiliates`, {
        key,
        body: { email: partner.email, commission_percent: 20 },
      })
    ).body.data
    await paidSale(svc, creator, {
      key,
      productId: product.id,
      body: { affiliate_code: affiliate.code },
    })
    // 200: commission 40, split 80 of the remaining 160, the creator keeps 80.
    await verifiedPixKey(svc.api, admin, partner)

    const asAffiliate = await svc.api('POST', '/api/affiliates/withdraw', {
      session: partner.session,
      body: { amount: 40 },
    })
    expect(asAffiliate.status).toBe(200)
    expect(asAffiliate.body).toMatchObject({ success: true, balance_before: 40 })
    const asCoproducer = await svc.api('POST', '/api/coproducers/withdraw', {
      session: partner.session,
      body: { amount: 50 },
    })
    expect(asCoproducer.status).toBe(200)
    expect(asCoproducer.body.balance_before).toBe(80)
    const again = await svc.api('POST', '/api/coproducers/withdraw', {
      session: partner.session,
      body: { amount: 20 },
    })
    expect(again.body).toEqual({ success: false, error: 'Você já tem um saque pendente' })
    const tooSmall = await svc.api('POST', '/api/affiliates/withdraw', {
      session: partner.session,
      body: { amount: 10 },
    })
    expect(tooSmall.status).toBe(400)

    expect(await balance(creator)).toMatchObject({
      available: 80,
      withdrawn_total: 90,
      coproducer_owed: 30,
      affiliate_owed: 0,
    })
    const copro = await svc.api('GET', '/api/coproducers/balance', { session: partner.session })
    expect(copro.body).toMatchObject({ available: 30, withdrawn: 50 })
    await review(svc.api, admin, asCoproducer.body.withdrawal_id, 'reject', { admin_note: 'Teste' })
    expect(await balance(creator)).toMatchObject({ withdrawn_total: 40, coproducer_owed: 80 })
    expect((await ledgerTotals(svc.deps.db)).total).toBe(0)
    await expectBooksExact(svc.deps.db, {
      accounts: [creator.accountId],
      affiliates: [partner.userId],
      coproducers: [partner.userId],
    })
  })

  it('only the platform admin reviews withdrawals; an unknown id is a 404', async () => {
    const creator = await sellingCreator(50)
    await verifiedPixKey(svc.api, admin, creator)
    const id = (await withdraw(svc.api, creator, 50)).body.withdrawal_id
    const byCreator = await svc.api('POST', `/api/admin/withdrawals/${id}/approve`, {
      session: creator.session,
    })
    expect(byCreator.status).toBe(403)
    expect(
      (await svc.api('GET', '/api/admin/withdrawals', { session: creator.session })).status,
    ).toBe(403)
    const unknown = await review(svc.api, admin, '0195d6c5-0000-7000-8000-000000000000', 'approve')
    expect(unknown.status).toBe(404)
    expect(unknown.body).toEqual({ success: false, error: 'Saque não encontrado' })
  })
})
