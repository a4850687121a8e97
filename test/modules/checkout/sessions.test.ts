import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { signupCreator } from '../../setup/actors.ts'
import { checkout, createProduct } from '../../setup/purchase.ts'
import { engine, eventually, startTestService, type TestService } from '../../setup/service.ts'

let first: TestService
let second: TestService
let direct: TestService
let productId: string
let key: string

beforeAll(async () => {
  // Two API instances on one database: limits and reuse must hold across them.
  first = await startTestService({ TRUST_PROXY: '1' })
  second = await startTestService(
    { TRUST_PROXY: '1', APP_SECRET: first.deps.appSecret },
    first.testDb,
  )
  // Without TRUST_PROXY, X-Forwarded-For is the client's word and must not pick the bucket.
  direct = await startTestService(
    { TRUST_PROXY: '0', APP_SECRET: first.deps.appSecret },
    first.testDb,
  )
  key = await (await signupCreator(first.api)).key(['write:products'])
  productId = (await createProduct(first.api, key)).id
})
afterAll(async () => {
  await direct?.stop()
  await second?.stop()
  await first?.stop()
})

const open = (svc: TestService, email: string, ip = '203.0.113.7') =>
  svc.api('POST', '/api/checkout/sessions', {
    headers: { 'x-forwarded-for': ip },
    body: { product_id: productId, email },
  })

/**
 * Waits until every instance's clock agrees with the first's: each re-reads the shared offset
 * once a second, so right after a test moved the clock an instance can still jump mid-burst
 * (and a burst spread across that jump would slide out of the limit's window).
 */
const clocksAgree = () =>
  eventually(async () =>
    [second, direct].every(
      (svc) => Math.abs(svc.deps.clock.now().getTime() - first.deps.clock.now().getTime()) < 500,
    ),
  )

describe(`checkout sessions (${engine})`, () => {
  it('reuses the session of the same e-mail and product within 24 h, with the same token', async () => {
    const a = await open(first, 'Reuse@Example.com', '198.51.100.1')
    expect(a.status).toBe(201)
    const b = await open(second, 'reuse@example.com', '198.51.100.1')
    expect(b.status).toBe(200)
    expect(b.body).toEqual(a.body)
    expect(a.body.session_token).toMatch(/^[0-9a-f]{64}$/)
    const stored = await first.deps.db
      .selectFrom('checkout_sessions')
      .selectAll()
      .where('id', '=', a.body.session_id)
      .executeTakeFirstOrThrow()
    expect(JSON.stringify(stored)).not.toContain(a.body.session_token)

    // Advanced on one instance, the clock moves for both (it lives in the database).
    await first.api('POST', '/sandbox/clock/advance', { body: { seconds: 24 * 3600 + 1 } })
    await eventually(
      async () =>
        Math.abs(second.deps.clock.now().getTime() - first.deps.clock.now().getTime()) < 1000,
    )
    const c = await open(first, 'reuse@example.com', '198.51.100.1')
    expect(c.status).toBe(201)
    expect(c.body.session_id).not.toBe(a.body.session_id)
  })

  it('PATCH needs the token (403 otherwise) and stores the partial form', async () => {
    const { body } = await open(first, 'patch@example.com', '198.51.100.2')
    const path = `/api/checkout/sessions/${body.session_id}`
    expect((await first.api('PATCH', path, { body: { name: 'Ana' } })).status).toBe(403)
    expect(
      (await first.api('PATCH', path, { body: { session_token: 'f'.repeat(64), name: 'Ana' } }))
        .status,
    ).toBe(403)
    const ok = await second.api('PATCH', path, {
      body: { session_token: body.session_token, name: 'Ana', cpf: '529.982.247-25' },
    })
    expect(ok.status).toBe(200)
    expect(ok.body.session_id).toBe(body.session_id)
    const row = await first.deps.db
      .selectFrom('checkout_sessions')
      .selectAll()
      .where('id', '=', body.session_id)
      .executeTakeFirstOrThrow()
    expect(row).toMatchObject({ name: 'Ana', cpf: '529.982.247-25' })
    expect(
      (
        await first.api('PATCH', '/api/checkout/sessions/018f0000-0000-7000-8000-000000000000', {
          body: { session_token: 'x' },
        })
      ).status,
    ).toBe(404)
  })

  it("PATCH keeps the buyer's plan, only one the product sells", async () => {
    const product = await createProduct(first.api, key, {
      billing: 'recurring',
      plans: [
        { name: 'Mensal', price: 30 },
        { name: 'Anual', price: 300, interval: 'year' },
      ],
    })
    const other = await createProduct(first.api, key)
    const opened = await first.api('POST', '/api/checkout/sessions', {
      headers: { 'x-forwarded-for': '198.51.100.4' },
      body: { product_id: product.id, email: 'plano@example.com' },
    })
    const { session_id: id, session_token: token } = opened.body
    const path = `/api/checkout/sessions/${id}`
    const foreign = await first.api('PATCH', path, {
      body: { session_token: token, plan_id: other.plans[0].id },
    })
    expect(foreign).toMatchObject({
      status: 400,
      body: { error: 'Plano inválido para este produto' },
    })
    const yearly = product.plans[1].id
    expect(
      (await first.api('PATCH', path, { body: { session_token: token, plan_id: yearly } })).status,
    ).toBe(200)
    const row = await first.deps.db
      .selectFrom('checkout_sessions')
      .select('plan_id')
      .where('id', '=', id)
      .executeTakeFirstOrThrow()
    expect(row.plan_id).toBe(yearly)
  })

  it('31 creations from one IP across two instances: the 31st is 429 with Retry-After', async () => {
    await clocksAgree()
    const statuses: number[] = []
    for (let i = 0; i < 30; i++) {
      const res = await open(i % 2 ? first : second, `burst-${i}@example.com`, '192.0.2.55')
      statuses.push(res.status)
    }
    expect(statuses.every((s) => s === 201)).toBe(true)
    const over = await open(first, 'burst-30@example.com', '192.0.2.55')
    expect(over.status).toBe(429)
    expect(Number(over.headers.get('retry-after'))).toBeGreaterThan(0)
    expect(over.body.error).toBeTypeOf('string')
    expect((await open(second, 'other-ip@example.com', '192.0.2.56')).status).toBe(201)
  })

  it('the limit slides: 30 just before a clock minute ends still hold the next minute off', async () => {
    const ip = '192.0.2.77'
    const now = first.deps.clock.now().getTime()
    await first.deps.clock.advance(60_000 - (now % 60_000) - 2_000)
    const firstHit = first.deps.clock.now().getTime()
    for (let i = 0; i < 30; i++) {
      expect((await open(first, `slide-${i}@example.com`, ip)).status).toBe(201)
    }
    // Into the next clock minute: a fixed window would start counting from zero here.
    await first.deps.clock.advance(3_000)
    const early = await open(first, 'slide-30@example.com', ip)
    expect(early.status).toBe(429)
    // Until the first of the 30 is a minute old (on a loaded machine the 30 take seconds).
    const wait = Number(early.headers.get('retry-after'))
    const untilFirstAges = (firstHit + 60_000 - first.deps.clock.now().getTime()) / 1000
    expect(wait).toBeGreaterThanOrEqual(Math.floor(untilFirstAges) - 1)
    expect(wait).toBeLessThanOrEqual(Math.ceil(untilFirstAges) + 1)
    await first.deps.clock.advance(wait * 1_000)
    expect((await open(first, 'slide-31@example.com', ip)).status).toBe(201)

    // An hour idle, the bucket is dropped by the pruning worker.
    const bucket = () =>
      first.deps.db
        .selectFrom('rate_limits')
        .select('bucket')
        .where('bucket', '=', `checkout-sessions:${ip}`)
        .executeTakeFirst()
    expect(await bucket()).toBeDefined()
    await first.deps.clock.advance(3_600_000 + 1_000)
    first.workers!.kick()
    await eventually(async () => !(await bucket()))
  })

  it('without TRUST_PROXY a forged X-Forwarded-For does not escape the limit', async () => {
    await clocksAgree()
    const statuses: number[] = []
    for (let i = 0; i < 31; i++) {
      const res = await open(direct, `forged-${i}@example.com`, `198.18.0.${i}`)
      statuses.push(res.status)
    }
    expect(statuses.slice(0, 30).every((s) => s === 201)).toBe(true)
    expect(statuses[30]).toBe(429)
  })

  it('a checkout with the session marks it converted', async () => {
    const { body } = await open(first, 'convert@example.com', '198.51.100.3')
    const order = await checkout(first.api, productId, {
      email: 'convert@example.com',
      session_id: body.session_id,
    })
    expect(order.status).toBe(201)
    const row = await first.deps.db
      .selectFrom('checkout_sessions')
      .selectAll()
      .where('id', '=', body.session_id)
      .executeTakeFirstOrThrow()
    expect(row.order_id).toBe(order.body.order_id)
  })
})
