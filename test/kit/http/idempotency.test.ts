// Idempotency-Key after authentication, per credential (SPEC §1, §15).
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { signupCreator } from '../../setup/actors.ts'
import { createProduct } from '../../setup/purchase.ts'
import { engine, startTestService, type TestService } from '../../setup/service.ts'

let svc: TestService
beforeAll(async () => {
  // X-Forwarded-For is believed only behind a proxy: that is how two buyers get two IPs here.
  svc = await startTestService({ TRUST_PROXY: '1' })
})
afterAll(() => svc?.stop())

describe(`Idempotency-Key per credential (${engine})`, () => {
  it('a revoked key is a 401, never the replay of its earlier answer', async () => {
    const creator = await signupCreator(svc.api)
    const created = await svc.api('POST', `/api/accounts/${creator.accountId}/api-keys`, {
      session: creator.session,
      body: { name: 'integração', scopes: ['write:webhooks'] },
    })
    const key: string = created.body.key
    const request = {
      key,
      headers: { 'idempotency-key': 'hook-1' },
      body: { url: 'http://127.0.0.1:9/hook', events: ['order.paid'] },
    }
    const first = await svc.api('POST', '/api/v1/webhooks', request)
    expect(first.status).toBe(201)
    const again = await svc.api('POST', '/api/v1/webhooks', request)
    expect(again.headers.get('idempotent-replayed')).toBe('true')

    const revoked = await svc.api(
      'DELETE',
      `/api/accounts/${creator.accountId}/api-keys/${created.body.data.id}`,
      { session: creator.session },
    )
    expect(revoked.status).toBe(204)
    const replay = await svc.api('POST', '/api/v1/webhooks', request)
    expect(replay.status).toBe(401)
    expect(replay.body).toEqual({ error: 'Unauthorized' })
  })

  it('anonymous callers are told apart by IP: one buyer never gets or blocks another', async () => {
    const creator = await signupCreator(svc.api)
    const product = await createProduct(svc.api, await creator.key(['write:products']))
    const open = (ip: string, email: string) =>
      svc.api('POST', '/api/checkout/sessions', {
        headers: { 'idempotency-key': 'carrinho-1', 'x-forwarded-for': ip },
        body: { product_id: product.id, email },
      })
    const ana = await open('203.0.113.10', 'ana@example.com')
    expect(ana.status).toBe(201)
    // Same key from another buyer: their own session, neither Ana's replay nor a 422.
    const bia = await open('203.0.113.20', 'bia@example.com')
    expect(bia.status).toBe(201)
    expect(bia.body.session_id).not.toBe(ana.body.session_id)
    expect(bia.headers.get('idempotent-replayed')).toBeNull()
    // The same buyer again still gets the replay.
    const anaAgain = await open('203.0.113.10', 'ana@example.com')
    expect(anaAgain.headers.get('idempotent-replayed')).toBe('true')
    expect(anaAgain.body).toEqual(ana.body)
  })
})
