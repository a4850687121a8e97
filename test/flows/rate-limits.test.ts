// SPEC §15: the way in and checkout creation are rate-limited per e-mail, IP or user, shared by
// all instances (counted in the database), 429 with Retry-After. Each test comes from its own
// IP (TRUST_PROXY + X-Forwarded-For), so their buckets never meet.
import { randomBytes, randomUUID } from 'node:crypto'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { hit, pruneRateLimits, type RateLimit } from '../../src/kit/rate-limit.ts'
import {
  LOGIN_FAILURES_PER_IP,
  PASSWORD_CHANGES_PER_USER,
  SIGNUPS_PER_IP,
} from '../../src/modules/accounts/limits.ts'
import { sessionCookieFrom } from '../setup/actors.ts'
import { VALID_CPF } from '../setup/purchase.ts'
import { engine, startTestService, type TestService } from '../setup/service.ts'

let svc: TestService
beforeAll(async () => {
  svc = await startTestService({ TRUST_PROXY: '1' })
})
afterAll(() => svc?.stop())

const PASSWORD = 'senha-forte-123'
const newEmail = () => `pessoa-${randomBytes(4).toString('hex')}@example.com`
const from = (ip: string) => ({ 'x-forwarded-for': ip })

const signup = (ip: string, email = newEmail()) =>
  svc.api('POST', '/api/auth/signup', {
    headers: from(ip),
    body: { name: 'Pessoa', email, password: PASSWORD },
  })
const login = (ip: string, email: string, password: string) =>
  svc.api('POST', '/api/auth/login', { headers: from(ip), body: { email, password } })

/** A checkout of a product that does not exist: refused, yet counted like any creation. */
const create = (ip: string) =>
  svc.api('POST', '/api/checkout/create', {
    headers: from(ip),
    body: {
      product_id: randomUUID(),
      name: 'Beatriz Compradora',
      email: newEmail(),
      cpf: VALID_CPF,
      phone: '(11) 98765-4321',
      payment_method: 'pix',
    },
  })

/**
 * Logs `count` earlier hits through the limiter itself, so a test reaches a limit without
 * paying a password hash for each (scrypt is the slow part of every attempt).
 */
async function earlierHits(rule: RateLimit, key: string, count: number) {
  for (let i = 0; i < count; i++) await hit(svc.deps.db, svc.deps.clock, rule, key)
}

function expectLimited(
  res: { status: number; body: unknown; headers: Headers },
  maxSeconds: number,
) {
  expect(res.status).toBe(429)
  expect(res.body).toEqual({ error: 'Too many requests' })
  const retryAfter = Number(res.headers.get('retry-after'))
  expect(retryAfter).toBeGreaterThan(0)
  expect(retryAfter).toBeLessThanOrEqual(maxSeconds)
}

describe(`rate limits (${engine})`, () => {
  it('40 wrong passwords at once for one e-mail: 10 are checked, the rest and then the right one are 429', async () => {
    const email = newEmail()
    expect((await signup('10.0.1.1', email)).status).toBe(201)
    // Different IPs, so only the e-mail's bucket fills; all at once, so a check made before
    // any failure was counted would let the whole burst through.
    const results = await Promise.all(
      Array.from({ length: 40 }, (_, i) => login(`10.0.2.${i}`, email, `errada-${i}`)),
    )
    const statuses = results.map((r) => r.status)
    expect(statuses.filter((s) => s === 401)).toHaveLength(10)
    expect(statuses.filter((s) => s === 429)).toHaveLength(30)
    expectLimited(results.find((r) => r.status === 429)!, 15 * 60)
    expectLimited(await login('10.0.3.1', email, PASSWORD), 15 * 60)
  })

  it('50 failures from one IP over many e-mails close it, a success there does not reopen it, other IPs go on', async () => {
    const ip = '10.0.4.1'
    const email = newEmail()
    expect((await signup('10.0.4.9', email)).status).toBe(201)
    await earlierHits(LOGIN_FAILURES_PER_IP, ip, 48)
    expect((await login(ip, newEmail(), 'qualquer-senha')).status).toBe(401)
    // The owner's right password still passes (49 < 50) and takes back only its own attempt.
    expect((await login(ip, email, PASSWORD)).status).toBe(200)
    expect((await login(ip, newEmail(), 'qualquer-senha')).status).toBe(401)
    expectLimited(await login(ip, newEmail(), 'qualquer-senha'), 15 * 60)
    expectLimited(await login(ip, email, PASSWORD), 15 * 60)
    const elsewhere = await login('10.0.4.2', email, PASSWORD)
    expect(elsewhere.status).toBe(200)
    expect(sessionCookieFrom(elsewhere.headers)).toContain('vitrine_session=')
  })

  it('sign-up: 10 per IP per hour, refusals included', async () => {
    const ip = '10.0.5.1'
    await earlierHits(SIGNUPS_PER_IP, ip, 8)
    const taken = newEmail()
    expect((await signup(ip, taken)).status).toBe(201)
    expect((await signup(ip, taken)).status).toBe(409)
    expectLimited(await signup(ip), 3600)
    expect((await signup('10.0.5.2')).status).toBe(201)
  })

  it('password changes: 10 attempts per user per 15 minutes, refusals included', async () => {
    const res = await signup('10.0.6.1')
    const session = { cookie: sessionCookieFrom(res.headers), csrf: res.body.csrf_token }
    const change = (current: string) =>
      svc.api('POST', '/api/auth/password', {
        session,
        body: { password: 'outra-senha-123', current_password: current },
      })
    await earlierHits(PASSWORD_CHANGES_PER_USER, res.body.user.id, 9)
    expect((await change('errada')).status).toBe(403)
    expectLimited(await change(PASSWORD), 15 * 60)
  })

  it('log-in links: the same 202 for any e-mail, 3 per e-mail per 15 minutes, 20 per IP per hour', async () => {
    const ip = '10.0.7.1'
    const email = newEmail()
    expect((await signup('10.0.7.9', email)).status).toBe(201)
    const ask = (address: string, from_ = ip) =>
      svc.api('POST', '/api/auth/login-link', { headers: from(from_), body: { email: address } })

    const known = [await ask(email), await ask(email), await ask(email)]
    const unknown = await ask(newEmail())
    for (const res of [...known, unknown])
      expect(res).toMatchObject({ status: 202, body: { accepted: true } })
    expectLimited(await ask(email), 15 * 60)
    expectLimited(await ask(email, '10.0.7.2'), 15 * 60)
    const mails = (await svc.api('GET', `/api/dev/emails?to=${email}`)).body.data
    expect(mails.map((m: { subject: string }) => m.subject)).toEqual(
      Array(3).fill('Seu link de acesso à área de membros'),
    )

    // 4 requests from this IP so far went through; 16 more fill its hour.
    const more = await Promise.all(Array.from({ length: 16 }, () => ask(newEmail())))
    expect(more.every((r) => r.status === 202)).toBe(true)
    expectLimited(await ask(newEmail()), 3600)
    expect((await ask(newEmail(), '10.0.7.3')).status).toBe(202)
  })

  it('checkout creation: 120 per IP per minute, any outcome; other IPs go on', async () => {
    // Unknown products: cheap, and a refused creation costs the IP a hit like any other.
    const results = await Promise.all(Array.from({ length: 120 }, () => create('10.0.8.1')))
    expect(results.every((r) => r.status === 404)).toBe(true)
    expectLimited(await create('10.0.8.1'), 60)
    expect((await create('10.0.8.2')).status).toBe(404)
  })

  // PostgreSQL only: what crosses pg's client is what a round trip carries (PGlite has none).
  if (engine === 'postgres')
    it('checkout creation logs its hit in the statement that reads the product', async () => {
      const texts: string[] = []
      const query = pg.Client.prototype.query
      pg.Client.prototype.query = function recorded(this: pg.Client, ...args: unknown[]) {
        const [first] = args
        texts.push(typeof first === 'string' ? first : ((first as { text?: string }).text ?? ''))
        return (query as (...a: unknown[]) => unknown).apply(this, args)
      } as typeof query
      try {
        expect((await create('10.0.8.3')).status).toBe(404)
      } finally {
        pg.Client.prototype.query = query
      }
      const hits = texts.filter((text) => text.includes('INSERT INTO rate_limits'))
      expect(hits).toHaveLength(1)
      expect(hits[0]).toContain('from "products"')
    })

  it('pruning drops the buckets idle since the given instant and keeps the others', async () => {
    const rule: RateLimit = { name: 'prune-test', limit: 5, windowMs: 60_000 }
    await hit(svc.deps.db, svc.deps.clock, rule, 'idle')
    const between = new Date(svc.deps.clock.now().getTime() + 1)
    await svc.deps.clock.advance(1_000)
    await hit(svc.deps.db, svc.deps.clock, rule, 'busy')
    await pruneRateLimits(svc.deps.db, between)
    const left = await svc.deps.db
      .selectFrom('rate_limits')
      .select('bucket')
      .where('bucket', 'like', 'prune-test:%')
      .execute()
    expect(left.map((r) => r.bucket)).toEqual(['prune-test:busy'])
  })
})
