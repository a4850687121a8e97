import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { maskPixKey, normalizePixKey } from '../../../src/modules/payouts/pix-key.ts'
import { type Creator, signupCreator } from '../../setup/actors.ts'
import { ADMIN, adminSession } from '../../setup/payouts.ts'
import { engine, type Session, startTestService, type TestService } from '../../setup/service.ts'

describe('PIX key formats', () => {
  it('validates each type and stores one normal form whatever the mask', () => {
    expect(normalizePixKey('cpf', '529.982.247-25')).toEqual({ key: '52998224725' })
    expect(normalizePixKey('cpf', '529.982.247-24')).toHaveProperty('error')
    expect(normalizePixKey('cnpj', '11.222.333/0001-81')).toEqual({ key: '11222333000181' })
    expect(normalizePixKey('cnpj', '12.abc.345/01de-35')).toEqual({ key: '12ABC34501DE35' })
    expect(normalizePixKey('cnpj', '12.ABC.345/01DE-36')).toHaveProperty('error')
    expect(normalizePixKey('cnpj', '529.982.247-25')).toHaveProperty('error')
    expect(normalizePixKey('email', ' Ana.Souza@Example.com ')).toEqual({
      key: 'ana.souza@example.com',
    })
    expect(normalizePixKey('email', 'ana@localhost')).toHaveProperty('error')
    expect(normalizePixKey('email', `${'a'.repeat(70)}@example.com`)).toHaveProperty('error')
    expect(normalizePixKey('phone', '+55 (11) 98765-4321')).toEqual({ key: '+5511987654321' })
    expect(normalizePixKey('phone', '+55 11 1234')).toHaveProperty('error')
    expect(normalizePixKey('random', '7D9F0335-8DCC-4054-9BF9-0DBD61D36690')).toEqual({
      key: '7d9f0335-8dcc-4054-9bf9-0dbd61d36690',
    })
    expect(normalizePixKey('random', 'not-a-uuid')).toHaveProperty('error')
  })

  it('masks keys for reads', () => {
    expect(maskPixKey('cpf', '52998224725')).toBe('***.982.247-**')
    expect(maskPixKey('cnpj', '12ABC34501DE35')).toBe('12.ABC.345/****-**')
    expect(maskPixKey('email', 'ana.souza@example.com')).toBe('a***@example.com')
    expect(maskPixKey('phone', '+5511987654321')).toBe('+55 11 *****-4321')
    expect(maskPixKey('random', '7d9f0335-8dcc-4054-9bf9-0dbd61d36690')).toBe(
      '7d9f****-****-****-****-********6690',
    )
  })
})

describe(`PIX key on the profile (${engine})`, () => {
  let svc: TestService
  let admin: Session
  let creator: Creator
  beforeAll(async () => {
    svc = await startTestService(ADMIN)
    admin = await adminSession(svc.api)
    creator = await signupCreator(svc.api)
  })
  afterAll(() => svc?.stop())

  const setKey = (body: unknown, session = creator.session) =>
    svc.api('PATCH', '/api/profile/pix', { session, body })
  const profile = async () =>
    (await svc.api('GET', '/api/profile', { session: creator.session })).body

  it('refuses bad keys with 400 in the payout error shape, nothing stored', async () => {
    for (const body of [
      { pix_key: '123.456.789-00', pix_key_type: 'cpf' },
      { pix_key: 'x'.repeat(141), pix_key_type: 'email' },
      { pix_key: '', pix_key_type: 'email' },
      { pix_key: 'a@b.co', pix_key_type: 'iban' },
      { pix_key_type: 'cpf' },
    ]) {
      const res = await setKey(body)
      expect(res.status, JSON.stringify(body)).toBe(400)
      expect(res.body.success).toBe(false)
      expect(res.body.error).toEqual(expect.any(String))
    }
    expect(await profile()).toMatchObject({
      pix_status: 'none',
      pix_key: null,
      pix_verified: false,
    })
  })

  it('a new key waits for verification; the same key again changes nothing; a changed key waits again', async () => {
    const set = await setKey({ pix_key: '(11) 98765-4321', pix_key_type: 'phone' })
    expect(set.status).toBe(200)
    expect(set.body).toEqual({ success: true, pix_verified: false })
    expect(await profile()).toMatchObject({
      email: creator.email,
      pix_key: '+55 11 *****-4321',
      pix_key_type: 'phone',
      pix_status: 'pending',
      pix_verified: false,
    })

    const verified = await svc.api('POST', `/api/admin/pix-keys/${creator.userId}/verify`, {
      session: admin,
    })
    expect(verified.status).toBe(200)
    expect(verified.body).toMatchObject({
      success: true,
      pix_status: 'verified',
      pix_verified: true,
    })

    // The same key in another mask, through the POST alias: still verified.
    const again = await svc.api('POST', '/api/profile/pix', {
      session: creator.session,
      body: { pix_key: '+5511987654321', pix_key_type: 'phone' },
    })
    expect(again.body).toEqual({ success: true, pix_verified: true })

    const changed = await setKey({ pix_key: 'ana@example.com', pix_key_type: 'email' })
    expect(changed.body).toEqual({ success: true, pix_verified: false })
    expect(await profile()).toMatchObject({ pix_key: 'a***@example.com', pix_status: 'pending' })
  })

  it('the admin lists keys to verify in full and rejects with a reason', async () => {
    await setKey({ pix_key: '11.222.333/0001-81', pix_key_type: 'cnpj' })
    const pending = await svc.api('GET', '/api/admin/pix-keys?status=pending', { session: admin })
    expect(pending.status).toBe(200)
    expect(pending.body.data).toContainEqual(
      expect.objectContaining({
        user_id: creator.userId,
        email: creator.email,
        pix_key: '11222333000181',
        pix_status: 'pending',
      }),
    )
    const rejected = await svc.api('POST', `/api/admin/pix-keys/${creator.userId}/reject`, {
      session: admin,
      body: { reason: 'O CNPJ não pertence a quem vende' },
    })
    expect(rejected.status).toBe(200)
    expect(await profile()).toMatchObject({
      pix_status: 'rejected',
      pix_verified: false,
      pix_rejection_reason: 'O CNPJ não pertence a quem vende',
    })
    const noReason = await svc.api('POST', `/api/admin/pix-keys/${creator.userId}/reject`, {
      session: admin,
      body: { reason: '  ' },
    })
    expect(noReason.status).toBe(400)
  })

  it('only the platform admin reviews keys; a user without a key is a 404', async () => {
    const other = await signupCreator(svc.api)
    const byCreator = await svc.api('POST', `/api/admin/pix-keys/${creator.userId}/verify`, {
      session: other.session,
    })
    expect(byCreator.status).toBe(403)
    expect((await svc.api('GET', '/api/admin/pix-keys', { session: other.session })).status).toBe(
      403,
    )
    const none = await svc.api('POST', `/api/admin/pix-keys/${other.userId}/verify`, {
      session: admin,
    })
    expect(none.status).toBe(404)
    expect(none.body).toEqual({
      success: false,
      error: 'Este usuário não tem chave Pix cadastrada',
    })
  })

  it('a key needs write:profile; without credentials it is a 401', async () => {
    const readOnly = await creator.key(['read:payouts'])
    const denied = await svc.api('PATCH', '/api/profile/pix', {
      key: readOnly,
      body: { pix_key: 'ana@example.com', pix_key_type: 'email' },
    })
    expect(denied.status).toBe(403)
    expect(denied.body.error).toBe('Missing scope: write:profile')
    const writer = await creator.key(['write:profile'])
    const ok = await svc.api('PATCH', '/api/profile/pix', {
      key: writer,
      body: { pix_key: 'ana@example.com', pix_key_type: 'email' },
    })
    expect(ok.status).toBe(200)
    expect((await svc.api('GET', '/api/profile')).status).toBe(401)
  })
})
