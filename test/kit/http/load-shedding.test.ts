// Load shedding (kit/http/load-shedding.ts): past HTTP_MAX_IN_FLIGHT requests under way, a new
// one is answered 503 at once with Retry-After (a page in pt-BR to a browser), what finishes a
// sale still gets through, and a slot comes back when its request ends or its client leaves.
// Requests are held under way by checkouts waiting on a gateway that does not answer yet
// (PAYMENT_GATEWAY=mercadopago pointed at a server of this test's), over real HTTP.
import { createServer, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { OVERLOADED_MESSAGE, RETRY_AFTER_SECONDS } from '../../../src/kit/http/load-shedding.ts'
import { signupCreator } from '../../setup/actors.ts'
import { mercadoPagoEnv } from '../../setup/gateway-env.ts'
import { checkout, createProduct, VALID_CPF } from '../../setup/purchase.ts'
import { engine, eventually, startTestService, type TestService } from '../../setup/service.ts'

/** A gateway that keeps every request waiting until `release`, then answers each 500. */
async function startHoldingGateway() {
  let holding = true
  const waiting = new Set<ServerResponse>()
  const server = createServer((request, response) => {
    request.resume()
    if (!holding) return void response.writeHead(500).end()
    waiting.add(response)
    response.on('close', () => waiting.delete(response))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    waiting: () => waiting.size,
    hold: () => {
      holding = true
    },
    release: () => {
      holding = false
      for (const response of waiting) response.writeHead(500).end()
      waiting.clear()
    },
    close: () => {
      server.closeAllConnections()
      return new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}

let gateway: Awaited<ReturnType<typeof startHoldingGateway>>
let svc: TestService
let key: string
let product: { id: string; slug: string }
beforeAll(async () => {
  gateway = await startHoldingGateway()
  svc = await startTestService({
    ...mercadoPagoEnv({
      url: gateway.url,
      accessToken: 'TEST-token',
      publicKey: 'TEST-public-key',
      webhookSecret: 'segredo-do-webhook',
    }),
    HTTP_MAX_IN_FLIGHT: '2',
  })
  const creator = await signupCreator(svc.api)
  key = await creator.key(['write:products', 'read:orders'])
  product = await createProduct(svc.api, key)
})
afterAll(async () => {
  gateway?.release()
  await svc?.stop()
  await gateway?.close()
})

const ordersList = () =>
  fetch(`${svc.url}/api/v1/orders`, { headers: { authorization: `Bearer ${key}` } })

describe(`load shedding (${engine})`, () => {
  it('sheds past the limit, lets what finishes a sale through, and gives the slots back', async () => {
    gateway.hold()
    const held = [checkout(svc.api, product.id), checkout(svc.api, product.id)]
    await eventually(async () => gateway.waiting() === 2)

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

    gateway.release()
    // The gateway's failure is an unknown outcome: 502, for the reconciliation to settle.
    expect((await Promise.all(held)).map((r) => r.status)).toEqual([502, 502])
    expect((await ordersList()).status).toBe(200)
  })

  it('gives a slot back as soon as its client leaves', async () => {
    gateway.hold()
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
    await eventually(async () => gateway.waiting() === 2)
    expect((await ordersList()).status).toBe(503)

    for (const client of clients) client.abort()
    await Promise.all(leaving)
    // Their handlers still wait on the gateway; their slots are free.
    expect(gateway.waiting()).toBe(2)
    await eventually(async () => (await ordersList()).status === 200)
    gateway.release()
  })
})
