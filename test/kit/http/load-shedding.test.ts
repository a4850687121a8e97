// Load shedding (kit/http/load-shedding.ts): past HTTP_MAX_IN_FLIGHT requests under way, a new
// one is answered 503 at once with Retry-After (a page in pt-BR to a browser), what finishes a
// sale still gets through, and a slot comes back when its request ends or its client leaves.
// Requests are held under way by checkouts waiting on a gateway that does not answer yet
// (Mercado Pago's fake holding its answers), over real HTTP.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { OVERLOADED_MESSAGE, RETRY_AFTER_SECONDS } from '../../../src/kit/http/load-shedding.ts'
import { type FakeMercadoPago, startFakeMercadoPago } from '../../fakes/mercadopago.ts'
import { signupCreator } from '../../setup/actors.ts'
import { mercadoPagoEnv } from '../../setup/gateway-env.ts'
import { checkout, createProduct, VALID_CPF } from '../../setup/purchase.ts'
import { engine, eventually, startTestService, type TestService } from '../../setup/service.ts'

let mp: FakeMercadoPago
let svc: TestService
let key: string
let product: { id: string; slug: string }
beforeAll(async () => {
  mp = await startFakeMercadoPago({ now: () => (svc ? svc.deps.clock.now() : new Date()) })
  svc = await startTestService({ ...mercadoPagoEnv(mp), HTTP_MAX_IN_FLIGHT: '2' })
  const creator = await signupCreator(svc.api)
  key = await creator.key(['write:products', 'read:orders'])
  product = await createProduct(svc.api, key)
})
afterAll(async () => {
  mp?.releaseAnswers()
  await svc?.stop()
  await mp?.close()
})

const ordersList = () =>
  fetch(`${svc.url}/api/v1/orders`, { headers: { authorization: `Bearer ${key}` } })

describe(`load shedding (${engine})`, () => {
  it('sheds past the limit, lets what finishes a sale through, and gives the slots back', async () => {
    mp.holdAnswers()
    const held = [checkout(svc.api, product.id), checkout(svc.api, product.id)]
    await eventually(async () => mp.held() === 2)

    const api = await ordersList()
    expect(api.status).toBe(503)
    expect(api.headers.get('retry-after')).toBe(String(RETRY_AFTER_SECONDS))
    expect(await api.json()).toEqual({ error: OVERLOADED_MESSAGE })

    const page = await fetch(`${svc.url}/checkout/${product.slug}`, {
      headers: { accept: 'text/html,application/xhtml+xml' },
    })
    expect(page.status).toBe(503)
    expect(page.headers.get('content-type')).toMatch(/^text\/html/)
    expect(await page.text()).toContain('Muita gente comprando agora')
    // It loads itself again in 2 to 5 s, spread so that those turned away together come back apart.
    expect(Number(page.headers.get('refresh'))).toBeGreaterThanOrEqual(2)
    expect(Number(page.headers.get('refresh'))).toBeLessThanOrEqual(5)

    // Never shed: the load balancer's check, and a gateway's callback (refused unsigned: 401).
    expect((await fetch(`${svc.url}/health`)).status).toBe(200)
    const callback = await fetch(
      `${svc.url}/api/payments/callback/mercadopago?data.id=1&type=payment`,
      { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' },
    )
    expect(callback.status).toBe(401)

    mp.releaseAnswers()
    expect((await Promise.all(held)).map((r) => r.status)).toEqual([201, 201])
    // A slot is given back on the response's close, just after its last byte went out.
    await eventually(async () => (await ordersList()).status === 200, 3_000)
  })

  it('gives a slot back as soon as its client leaves', async () => {
    mp.holdAnswers()
    const clients = [new AbortController(), new AbortController()]
    const leaving = clients.map((client) =>
      fetch(`${svc.url}/api/checkout/create`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          product_id: product.id,
          name: 'Beatriz Compradora',
          email: 'beatriz@example.com',
          cpf: VALID_CPF,
          phone: '(11) 98765-4321',
          payment_method: 'pix',
        }),
        signal: client.signal,
      }).catch(() => null),
    )
    await eventually(async () => mp.held() === 2)
    expect((await ordersList()).status).toBe(503)

    for (const client of clients) client.abort()
    await Promise.all(leaving)
    // Their handlers still wait on the gateway; their slots are free.
    expect(mp.held()).toBe(2)
    // Well before the adapter's 10 s wait on the gateway ends their handlers.
    await eventually(async () => (await ordersList()).status === 200, 3_000)
    mp.releaseAnswers()
  })
})
