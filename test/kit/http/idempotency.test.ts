// Idempotency-Key after authentication, per credential (SPEC §1, §15).
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { signupCreator } from '../../setup/actors.ts'
import { createProduct, VALID_CPF } from '../../setup/purchase.ts'
import { engine, startTestService, type TestService } from '../../setup/service.ts'

let svc: TestService
beforeAll(async () => {
  // X-Forwarded-For is believed only behind a proxy: that is how two buyers get two IPs here.
  svc = await startTestService({ TRUST_PROXY: '1' })
})
afterAll(() => svc?.stop())

/** A hosted checkout's order under an Idempotency-Key, from a buyer at `ip`. */
const keyedCheckout = (ip: string, key: string, body: Record<string, unknown>) =>
  svc.api('POST', '/api/checkout/create', {
    headers: { 'idempotency-key': key, 'x-forwarded-for': ip },
    body: { name: 'Beatriz Compradora', cpf: VALID_CPF, phone: '(11) 98765-4321', ...body },
  })
const ordersOf = (email: string) =>
  svc.deps.db.selectFrom('orders').select('id').where('buyer_email', '=', email).execute()

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
    // Ana again from her phone's new address (Wi-Fi to 4G): the same request, so the replay.
    const anaOn4g = await open('198.51.100.77', 'ana@example.com')
    expect(anaOn4g.headers.get('idempotent-replayed')).toBe('true')
    expect(anaOn4g.body).toEqual(ana.body)
    // Neither claimed the key there: another request from that address is its own.
    const caio = await open('198.51.100.77', 'caio@example.com')
    expect(caio.status).toBe(201)
    expect(caio.headers.get('idempotent-replayed')).toBeNull()
  })

  it('a checkout whose answer was lost, sent again from a new address, is not charged again', async () => {
    const creator = await signupCreator(svc.api)
    const product = await createProduct(svc.api, await creator.key(['write:products']), {
      payment_methods: ['pix', 'card'],
    })
    const pay = (ip: string) =>
      keyedCheckout(ip, 'a1b2c3d4e5f60718293a4b5c6d7e8f90', {
        product_id: product.id,
        email: 'beatriz.4g@example.com',
        payment_method: 'card',
        card_token: 'tok_approved',
      })
    const first = await pay('203.0.113.30')
    expect(first.body.status).toBe('paid')
    const again = await pay('198.51.100.30')
    expect(again.body).toEqual(first.body)
    expect(await ordersOf('beatriz.4g@example.com')).toEqual([{ id: first.body.order_id }])
  })

  it('the same request from several addresses at once runs once', async () => {
    const creator = await signupCreator(svc.api)
    const product = await createProduct(svc.api, await creator.key(['write:products']))
    const send = (ip: string) =>
      keyedCheckout(ip, 'f0e1d2c3b4a5968778695a4b3c2d1e0f', {
        product_id: product.id,
        email: 'davi.juntos@example.com',
        payment_method: 'pix',
      })
    const answers = await Promise.all(
      ['203.0.113.51', '203.0.113.52', '198.51.100.53', '198.51.100.54'].map(send),
    )
    expect(answers.every((r) => r.status === 201 || r.status === 409)).toBe(true)
    const orders = await ordersOf('davi.juntos@example.com')
    expect(orders).toHaveLength(1)
    for (const created of answers.filter((r) => r.status === 201)) {
      expect(created.body.order_id).toBe(orders[0]!.id)
    }
  })

  it('keys past their 24 h are dropped by the pruner, newer ones stay', async () => {
    const keyed = (key: string, email: string) =>
      svc.api('POST', '/api/checkout/sessions', {
        headers: { 'idempotency-key': key, 'x-forwarded-for': '203.0.113.40' },
        body: { product_id: prunedProduct, email },
      })
    const creator = await signupCreator(svc.api)
    const prunedProduct = (await createProduct(svc.api, await creator.key(['write:products']))).id
    await keyed('velha-1', 'velha@example.com')
    await svc.deps.clock.advance(24 * 3_600_000 + 1_000)
    await keyed('nova-1', 'nova@example.com')
    await svc.workers!.runOnce('idempotency.prune')
    const left = await svc.deps.db
      .selectFrom('idempotency_keys')
      .select('key')
      .where('key', 'in', ['velha-1', 'nova-1'])
      .execute()
    expect(left).toEqual([{ key: 'nova-1' }])
  })
})
