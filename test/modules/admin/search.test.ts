// The back office's read API: accounts and orders found by id, e-mail or name; the withdrawal
// history by status with each open withdrawal's holder balance. Admin only.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { signupCreator } from '../../setup/actors.ts'
import { paidSale } from '../../setup/ledger.ts'
import { ADMIN, adminSession, review, verifiedPixKey, withdraw } from '../../setup/payouts.ts'
import type { Session } from '../../setup/service.ts'
import { startTestService, type TestService } from '../../setup/service.ts'

let svc: TestService
let admin: Session
beforeAll(async () => {
  svc = await startTestService(ADMIN)
  admin = await adminSession(svc.api)
})
afterAll(() => svc?.stop())

const get = (path: string, session: Session = admin) => svc.api('GET', path, { session })

describe('admin search', () => {
  it('finds an account by its id, its owner id, its owner e-mail and part of a name', async () => {
    const creator = await signupCreator(svc.api, 'Olaria Serra Azul')
    const expected = {
      id: creator.accountId,
      name: 'Olaria Serra Azul',
      owner: { id: creator.userId, name: 'Olaria Serra Azul', email: creator.email },
    }
    for (const q of [creator.accountId, creator.userId, creator.email.toUpperCase(), 'serra az']) {
      const res = await get(`/api/admin/accounts?q=${encodeURIComponent(q)}`)
      expect(res.status, q).toBe(200)
      expect(res.body.data, q).toEqual([expect.objectContaining(expected)])
    }
    // LIKE wildcards are taken literally.
    const wild = await get('/api/admin/accounts?q=%25')
    expect(wild.body.data).toEqual([])
  })

  it("finds an order by its id and every order by the buyer's exact e-mail, newest first", async () => {
    const creator = await signupCreator(svc.api, 'Loja da Lia')
    const email = `lia-cliente-${Date.now()}@example.com`
    const first = await paidSale(svc, creator, { price: 40, body: { email } })
    const second = await paidSale(svc, creator, { price: 60, body: { email } })
    const byEmail = await get(`/api/admin/orders?q=${encodeURIComponent(email.toUpperCase())}`)
    expect(byEmail.status).toBe(200)
    expect(byEmail.body.data.map((o: { id: string }) => o.id)).toEqual([
      second.orderId,
      first.orderId,
    ])
    expect(byEmail.body.data[0]).toMatchObject({
      status: 'paid',
      amount: 60,
      buyer_email: email,
      account_id: creator.accountId,
      account_name: 'Loja da Lia',
    })
    const byId = await get(`/api/admin/orders?q=${first.orderId}`)
    expect(byId.body.data).toEqual([expect.objectContaining({ id: first.orderId, amount: 40 })])
    // Part of an e-mail finds nothing: the buyer's e-mail is matched whole.
    const part = await get(`/api/admin/orders?q=${encodeURIComponent(email.slice(0, 8))}`)
    expect(part.body.data).toEqual([])
  })

  it('is for the platform admin only', async () => {
    const creator = await signupCreator(svc.api)
    for (const path of [
      '/api/admin/accounts?q=x',
      '/api/admin/orders?q=x',
      '/api/admin/withdrawal-history',
    ]) {
      expect((await get(path, creator.session)).status, path).toBe(403)
      expect((await svc.api('GET', path)).status, path).toBe(401)
    }
    expect((await get('/api/admin/accounts?q=')).status).toBe(400)
  })
})

describe('withdrawal history', () => {
  it("lists by status, with the holder and, while open, the holder's available balance", async () => {
    const creator = await signupCreator(svc.api, 'Ateliê Maré')
    await paidSale(svc, creator, { price: 200 })
    await verifiedPixKey(svc.api, admin, creator)
    const first = await withdraw(svc.api, creator, 50)
    expect(first.status).toBe(201)
    type Row = { holder_email: string; status: string }
    const mine = (rows: Row[]) => rows.filter((w) => w.holder_email === creator.email)

    const open = await get('/api/admin/withdrawal-history?status=open')
    expect(open.status).toBe(200)
    expect(mine(open.body.data)).toEqual([
      expect.objectContaining({
        id: first.body.withdrawal_id,
        status: 'pending',
        amount: 50,
        holder_name: 'Ateliê Maré',
        pix_key: '***.982.247-**',
        pix_key_full: '52998224725',
        holder_available: 150,
      }),
    ])

    expect((await review(svc.api, admin, first.body.withdrawal_id, 'approve')).status).toBe(200)
    expect((await review(svc.api, admin, first.body.withdrawal_id, 'pay')).status).toBe(200)
    const second = await withdraw(svc.api, creator, 30)
    const approved = await get('/api/admin/withdrawal-history?status=approved')
    expect(mine(approved.body.data)).toEqual([])
    const pending = await get('/api/admin/withdrawal-history?status=pending')
    expect(mine(pending.body.data)).toEqual([
      expect.objectContaining({ id: second.body.withdrawal_id, holder_available: 120 }),
    ])
    const paid = await get('/api/admin/withdrawal-history?status=paid')
    expect(mine(paid.body.data)).toEqual([
      expect.objectContaining({ id: first.body.withdrawal_id, holder_available: null }),
    ])
    const all = await get('/api/admin/withdrawal-history')
    expect(mine(all.body.data).map((w) => w.status)).toEqual(['pending', 'paid'])
  })
})
