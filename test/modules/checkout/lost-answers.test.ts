// GET /api/checkout/attempts/{key}: what the hosted checkout asks after a reload when the answer
// to its order was lost (web/checkout/browser/send-order.ts, lostAnswer). The order's own answer,
// whatever it was, from any IP; "still in progress" while it is handled; nothing otherwise.
import { randomBytes } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { signupCreator } from '../../setup/actors.ts'
import { createProduct, VALID_CPF } from '../../setup/purchase.ts'
import { engine, startTestService, type TestService } from '../../setup/service.ts'

let svc: TestService
let productId: string
beforeAll(async () => {
  // X-Forwarded-For is believed only behind a proxy: that is how a buyer changes IP here.
  svc = await startTestService({ TRUST_PROXY: '1' })
  const key = await (await signupCreator(svc.api)).key(['write:products'])
  productId = (await createProduct(svc.api, key, { payment_methods: ['pix', 'card'] })).id
})
afterAll(() => svc?.stop())

/** A key as the page makes them: 128 random bits in hex. */
const pageKey = () => randomBytes(16).toString('hex')

const order = (key: string, ip: string, body: Record<string, unknown> = {}) =>
  svc.api('POST', '/api/checkout/create', {
    headers: { 'idempotency-key': key, 'x-forwarded-for': ip },
    body: {
      product_id: productId,
      name: 'Beatriz Compradora',
      email: `beatriz-${key.slice(0, 8)}@example.com`,
      cpf: VALID_CPF,
      phone: '(11) 98765-4321',
      payment_method: 'pix',
      ...body,
    },
  })
const attempt = (key: string, ip = '198.51.100.7') =>
  svc.api('GET', `/api/checkout/attempts/${key}`, { headers: { 'x-forwarded-for': ip } })

describe(`a checkout's lost answer, asked again (${engine})`, () => {
  const card = (token: string) => ({ payment_method: 'card', card_token: token, installments: 1 })
  it.each([
    ['a PIX issued', '@example.com', {}, 201],
    ['a card declined', '@example.com', card('tok_declined'), 402],
    // The gateway's answer lost (sandbox-faults.ts): an unknown outcome, kept all the same.
    ['a charge of unknown outcome', '@instavel.example', card('tok_approved'), 502],
  ])("answers the order's own answer, %s, from another IP too", async (_name, domain, body, status) => {
    const key = pageKey()
    const email = `beatriz-${key.slice(0, 8)}${domain}`
    const first = await order(key, '203.0.113.10', { ...body, email })
    expect(first.status).toBe(status)
    const again = await attempt(key)
    expect(again.status).toBe(status)
    expect(again.headers.get('idempotent-replayed')).toBe('true')
    expect(again.body).toEqual(first.body)
  })

  it('says an order still being handled is in progress, and when to ask again', async () => {
    const key = pageKey()
    // A claim without its answer yet: what an order in flight leaves.
    await svc.deps.db
      .insertInto('idempotency_keys')
      .values({
        owner: 'ip:203.0.113.12',
        key,
        request_hash: 'x',
        created_at: svc.deps.clock.now(),
      })
      .execute()
    const res = await attempt(key)
    expect(res.status).toBe(409)
    expect(res.headers.get('retry-after')).toBe('1')
    expect(res.body.error).toBe('Pedido ainda em processamento')
  })

  it('knows nothing of a key no order carried, one past its 24 h, or one not made by the page', async () => {
    const unknown = await attempt(pageKey())
    expect(unknown.status).toBe(404)
    expect(unknown.body.error).toBe('Tentativa não encontrada')

    const old = pageKey()
    expect((await order(old, '203.0.113.13')).status).toBe(201)
    await svc.deps.clock.advance(24 * 3_600_000 + 1_000)
    expect((await attempt(old)).status).toBe(404)

    // A guessable key (an integration's own) is never looked up: the key is the only proof.
    const guessable = 'pedido-123'
    expect((await order(guessable, '203.0.113.14')).status).toBe(201)
    expect((await attempt(guessable)).status).toBe(400)
  })
})
