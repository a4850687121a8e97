import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { signupCreator } from '../../setup/actors.ts'
import { startTestService, type TestService } from '../../setup/service.ts'

let svc: TestService
let key: string
beforeAll(async () => {
  svc = await startTestService()
  key = await (await signupCreator(svc.api)).key(['write:products', 'read:products'])
})
afterAll(() => svc?.stop())

const product = (slug: string) => ({
  name: 'P',
  slug,
  billing: 'one_time',
  plans: [{ name: 'x', price: 10 }],
})

describe('HTTP conventions (SPEC §1)', () => {
  it('Idempotency-Key: same key and body replays; another body is 422', async () => {
    const headers = { 'idempotency-key': 'create-p-1' }
    const first = await svc.api('POST', '/api/v1/products', {
      key,
      headers,
      body: product('idem-slug-1'),
    })
    expect(first.status).toBe(201)
    const replay = await svc.api('POST', '/api/v1/products', {
      key,
      headers,
      body: product('idem-slug-1'),
    })
    expect(replay.status).toBe(201)
    expect(replay.body).toEqual(first.body)
    expect(replay.headers.get('idempotent-replayed')).toBe('true')
    const list = await svc.api('GET', '/api/v1/products', { key })
    expect(list.body.data).toHaveLength(1)

    const other = await svc.api('POST', '/api/v1/products', {
      key,
      headers,
      body: product('idem-slug-2'),
    })
    expect(other.status).toBe(422)
    expect(other.body.error).toBeTypeOf('string')
  })

  it('Idempotency-Key: after 24 h the same key runs the request afresh', async () => {
    const headers = { 'idempotency-key': 'create-p-2' }
    const send = (slug: string) =>
      svc.api('POST', '/api/v1/products', { key, headers, body: product(slug) })
    const first = await send('idem-day-1')
    expect(first.status).toBe(201)
    await svc.deps.clock.advance(24 * 3_600_000 + 1_000)
    const next = await send('idem-day-2')
    expect(next.status).toBe(201)
    expect(next.headers.get('idempotent-replayed')).toBeNull()
    expect(next.body.data.slug).toBe('idem-day-2')
    // The key is claimed again: the new body replays, the old one is now the different one.
    expect((await send('idem-day-2')).body).toEqual(next.body)
    expect((await send('idem-day-1')).status).toBe(422)
  })

  it('money with more than two decimals, negative or not a number → 400', async () => {
    for (const price of [10.001, -1, '10', null]) {
      const res = await svc.api('POST', '/api/v1/products', {
        key,
        body: {
          ...product(`bad-${String(price).replace(/\W/g, '')}`),
          plans: [{ name: 'x', price }],
        },
      })
      expect(res.status, String(price)).toBe(400)
      expect(res.body.details.length).toBeGreaterThan(0)
    }
  })

  it('415 for a body that is not JSON, 413 above 1 MiB, 400 for broken JSON', async () => {
    const text = await fetch(`${svc.url}/api/v1/products`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'text/plain' },
      body: 'hello',
    })
    expect(text.status).toBe(415)
    const big = await fetch(`${svc.url}/api/v1/products`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'x'.repeat(1024 * 1024 + 10) }),
    })
    expect(big.status).toBe(413)
    const broken = await fetch(`${svc.url}/api/v1/products`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: '{"name": ',
    })
    expect(broken.status).toBe(400)
    expect(await broken.json()).toMatchObject({ error: expect.any(String) })
  })

  it('unknown routes and ids are 404 with the error shape', async () => {
    expect(await svc.api('GET', '/api/v1/nothing-here', { key })).toMatchObject({
      status: 404,
      body: { error: 'Not found' },
    })
    const res = await svc.api('GET', '/api/v1/products/018f0000-0000-7000-8000-000000000000', {
      key,
    })
    expect(res.status).toBe(404)
  })

  it('serves OpenAPI 3 and the API reference', async () => {
    const spec = await svc.api('GET', '/openapi.json')
    expect(spec.status).toBe(200)
    expect(spec.body.openapi).toMatch(/^3\./)
    expect(Object.keys(spec.body.paths)).toEqual(
      expect.arrayContaining([
        '/api/v1/products',
        '/api/checkout/create',
        '/api/v1/orders',
        '/api/v1/webhooks',
      ]),
    )
    const docs = await fetch(`${svc.url}/docs`)
    expect(docs.status).toBe(200)
    expect(docs.headers.get('content-type')).toContain('text/html')
  })

  it('slugs are unique platform-wide (409)', async () => {
    const other = await (await signupCreator(svc.api)).key(['write:products'])
    expect(
      (await svc.api('POST', '/api/v1/products', { key, body: product('shared-slug') })).status,
    ).toBe(201)
    const dup = await svc.api('POST', '/api/v1/products', {
      key: other,
      body: product('shared-slug'),
    })
    expect(dup.status).toBe(409)
  })
})
