import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { KEY_CACHE_TTL_MS } from '../../../src/modules/accounts/key-cache.ts'
import { sessionCookieFrom, signupCreator } from '../../setup/actors.ts'
import { startTestService, type TestService } from '../../setup/service.ts'

let svc: TestService
beforeAll(async () => {
  svc = await startTestService({ ADMIN_EMAIL: 'root@example.com', ADMIN_PASSWORD: 'admin-senha-1' })
})
afterAll(() => svc?.stop())

/** A new creator's key that reads orders. */
async function newOrdersKey(): Promise<{ key: string; id: string }> {
  const creator = await signupCreator(svc.api)
  const created = await svc.api('POST', `/api/accounts/${creator.accountId}/api-keys`, {
    session: creator.session,
    body: { name: 'Pedidos', scopes: ['read:orders'] },
  })
  return { key: created.body.key, id: created.body.data.id }
}

describe('accounts', () => {
  it('signs up, reads /api/me, logs out and back in', async () => {
    const creator = await signupCreator(svc.api, 'Maria')
    const me = await svc.api('GET', '/api/me', { session: creator.session })
    expect(me.status).toBe(200)
    expect(me.body.user.email).toBe(creator.email)
    expect(me.body.accounts).toEqual([{ id: creator.accountId, name: 'Maria', role: 'owner' }])

    const out = await svc.api('POST', '/api/auth/logout', { session: creator.session })
    expect(out.status).toBe(204)
    expect((await svc.api('GET', '/api/me', { session: creator.session })).status).toBe(401)

    const bad = await svc.api('POST', '/api/auth/login', {
      body: { email: creator.email, password: 'errada-123' },
    })
    expect(bad.status).toBe(401)
    expect(bad.body).toEqual({ error: 'Unauthorized' })
    const login = await svc.api('POST', '/api/auth/login', {
      body: { email: creator.email.toUpperCase(), password: 'senha-forte-123' },
    })
    expect(login.status).toBe(200)
    const session = { cookie: sessionCookieFrom(login.headers), csrf: login.body.csrf_token }
    expect((await svc.api('GET', '/api/me', { session })).status).toBe(200)
  })

  it('refuses a second sign-up with the same e-mail (409) and bad input (400 with details)', async () => {
    const creator = await signupCreator(svc.api)
    const again = await svc.api('POST', '/api/auth/signup', {
      body: { name: 'X', email: creator.email, password: 'outra-senha-1' },
    })
    expect(again.status).toBe(409)
    const bad = await svc.api('POST', '/api/auth/signup', {
      body: { name: '', email: 'nope', password: '1' },
    })
    expect(bad.status).toBe(400)
    expect(bad.body.error).toBeTypeOf('string')
    expect(bad.body.details.length).toBeGreaterThan(0)
  })

  it('session writes need the CSRF header', async () => {
    const creator = await signupCreator(svc.api)
    const res = await svc.api('POST', `/api/accounts/${creator.accountId}/api-keys`, {
      session: { cookie: creator.session.cookie, csrf: 'wrong' },
      body: { name: 'k', scopes: ['read:orders'] },
    })
    expect(res.status).toBe(403)
  })

  it('API keys: shown once, prefixed, scoped, listed without the key, revocable', async () => {
    const creator = await signupCreator(svc.api)
    const created = await svc.api('POST', `/api/accounts/${creator.accountId}/api-keys`, {
      session: creator.session,
      body: { name: 'Integração', scopes: ['read:orders'] },
    })
    expect(created.status).toBe(201)
    const key: string = created.body.key
    expect(key).toMatch(/^vt_[A-Za-z0-9_-]{43}$/)
    expect(key.startsWith(created.body.data.prefix)).toBe(true)

    const list = await svc.api('GET', `/api/accounts/${creator.accountId}/api-keys`, {
      session: creator.session,
    })
    expect(list.body.data).toHaveLength(1)
    expect(JSON.stringify(list.body)).not.toContain(key)

    const stored = await svc.deps.db
      .selectFrom('api_keys')
      .select('key_hash')
      .executeTakeFirstOrThrow()
    expect(stored.key_hash).not.toContain(key.slice(3))

    expect((await svc.api('GET', '/api/v1/orders', { key })).status).toBe(200)
    const wrongScope = await svc.api('GET', '/api/v1/products', { key })
    expect(wrongScope.status).toBe(403)
    expect(wrongScope.body).toEqual({ error: 'Missing scope: read:products' })

    const del = await svc.api(
      'DELETE',
      `/api/accounts/${creator.accountId}/api-keys/${created.body.data.id}`,
      {
        session: creator.session,
      },
    )
    expect(del.status).toBe(204)
    const after = await svc.api('GET', '/api/v1/orders', { key })
    expect(after.status).toBe(401)
    expect(after.body).toEqual({ error: 'Unauthorized' })
  })

  it('a key revoked by another process works here until its remembered entry expires', async () => {
    const { key, id } = await newOrdersKey()
    expect((await svc.api('GET', '/api/v1/orders', { key })).status).toBe(200)
    // Revoked as another API process would: in the database, unseen by this one.
    await svc.deps.db
      .updateTable('api_keys')
      .set({ revoked_at: svc.deps.clock.now() })
      .where('id', '=', id)
      .execute()
    expect((await svc.api('GET', '/api/v1/orders', { key })).status).toBe(200)
    await svc.deps.clock.advance(KEY_CACHE_TTL_MS)
    expect((await svc.api('GET', '/api/v1/orders', { key })).status).toBe(401)
  })

  it('a remembered key still records its use, once a minute', async () => {
    const { key, id } = await newOrdersKey()
    const lastUsed = async () =>
      (
        await svc.deps.db
          .selectFrom('api_keys')
          .select('last_used_at')
          .where('id', '=', id)
          .executeTakeFirstOrThrow()
      ).last_used_at?.getTime()
    await svc.api('GET', '/api/v1/orders', { key })
    const first = await lastUsed()
    expect(first).toBeDefined()
    await svc.api('GET', '/api/v1/orders', { key })
    expect(await lastUsed()).toBe(first)
    await svc.deps.clock.advance(61_000)
    await svc.api('GET', '/api/v1/orders', { key })
    expect(await lastUsed()).toBeGreaterThan(first!)
  })

  it("cannot manage another account's keys", async () => {
    const a = await signupCreator(svc.api)
    const b = await signupCreator(svc.api)
    const res = await svc.api('POST', `/api/accounts/${a.accountId}/api-keys`, {
      session: b.session,
      body: { name: 'x', scopes: ['read:orders'] },
    })
    expect(res.status).toBe(404)
  })

  it('missing or malformed credentials are 401', async () => {
    expect((await svc.api('GET', '/api/me')).status).toBe(401)
    const res = await svc.api('GET', '/api/v1/orders', {
      headers: { authorization: 'Bearer vt_nope' },
    })
    expect(res.status).toBe(401)
    expect(res.body).toEqual({ error: 'Unauthorized' })
  })

  it('creates the platform admin from ADMIN_EMAIL / ADMIN_PASSWORD', async () => {
    const login = await svc.api('POST', '/api/auth/login', {
      body: { email: 'root@example.com', password: 'admin-senha-1' },
    })
    expect(login.status).toBe(200)
    const session = { cookie: sessionCookieFrom(login.headers), csrf: login.body.csrf_token }
    const me = await svc.api('GET', '/api/me', { session })
    expect(me.body.user.is_admin).toBe(true)
  })

  it('health answers ok once migrated', async () => {
    const res = await svc.api('GET', '/health')
    expect(res).toMatchObject({ status: 200, body: { status: 'ok' } })
  })
})
