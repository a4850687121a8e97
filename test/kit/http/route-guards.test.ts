// One walk over every operation of /openapi.json (Unkey's runCommonRouteTests): each guarded
// operation refuses a caller without credentials (401, whatever the body), a key without its
// scope (403), a non-admin (403), a key where only a session may act (401) and a cookie write
// without the CSRF token (403); and it answers 404 for another account's ids. The list of
// operations comes from the document, so a new route is walked the day it is added.
import { randomBytes, randomUUID } from 'node:crypto'
import Fastify from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { registerGuards } from '../../../src/kit/http/guard.ts'
import { SCOPES } from '../../../src/modules/accounts/schema.ts'
import { type Creator, signupCreator } from '../../setup/actors.ts'
import { checkout, createProduct, pay } from '../../setup/purchase.ts'
import { engine, type Session, startTestService, type TestService } from '../../setup/service.ts'

type Guard = string | { scope?: string; account?: string; from?: string }
interface Operation {
  operationId: string
  parameters?: { name: string; in: string }[]
  requestBody?: unknown
  'x-guard': Guard
}
interface Walked {
  method: string
  path: string
  op: Operation
}

/** What one account owns, one id per kind: the path segment before the id names its kind. */
type Ids = Record<string, string>
interface Tenant {
  creator: Creator
  /** A key holding every scope. */
  key: string
  ids: Ids
}

/** Valid bodies for operations that reach their handler (404 is the handler's answer). */
const BODIES: Record<string, unknown> = {
  updateProduct: { name: 'Outro nome' },
  createCoupon: { code: 'WALK10', percent_off: 10 },
  revokeMemberAccess: {},
  updateWebhook: { is_active: false },
  retryWebhookDeliveries: { since: '2020-01-01T00:00:00Z' },
  enrollAffiliate: { email: 'walker@example.com', commission_percent: 10 },
  updateAffiliate: { commission_percent: 20 },
  enrollCoproducer: { email: 'walker@example.com', split_percent: 10 },
  requestRefund: { reason: 'walk' },
  requestMyRefund: { reason: 'walk' },
  cancelSubscription: {},
  createApiKey: { name: 'walk', scopes: ['read:orders'] },
  updateAccountSettings: { sale_notifications: true },
}

let svc: TestService
let operations: Walked[]
let a: Tenant
let b: Tenant

beforeAll(async () => {
  svc = await startTestService()
  const doc = (await svc.api('GET', '/openapi.json')).body
  operations = Object.entries(doc.paths as Record<string, Record<string, Operation>>).flatMap(
    ([path, ops]) => Object.entries(ops).map(([method, op]) => ({ method, path, op })),
  )
  a = await tenant()
  b = await tenant()
}, 120_000)
afterAll(() => svc?.stop())

/** A creator whose account holds one of everything an id can name. */
async function tenant(): Promise<Tenant> {
  const creator = await signupCreator(svc.api)
  const key = await creator.key([...SCOPES])
  const ok = async (method: string, path: string, body?: unknown) => {
    const res = await svc.api(method, path, { key, body })
    if (res.status >= 300)
      throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(res.body)}`)
    return res.body
  }
  const product = await createProduct(svc.api, key)
  const sale = await checkout(svc.api, product.id)
  await pay(svc.api, sale.body.charge_id)
  const member = (await ok('GET', '/api/v1/members')).data[0]
  const plan = { name: 'Mensal', price: 30, interval: 'month' }
  const recurring = await createProduct(svc.api, key, { billing: 'recurring', plans: [plan] })
  await pay(svc.api, (await checkout(svc.api, recurring.id)).body.charge_id)
  const subscription = (await ok('GET', '/api/v1/subscriptions')).data[0]
  const refund = await ok('POST', `/api/v1/orders/${sale.body.order_id}/refund`, { reason: 'x' })
  const webhook = await ok('POST', '/api/v1/webhooks', {
    url: 'http://127.0.0.1:9/hook',
    events: ['order.paid'],
  })
  const delivery = await ok('POST', `/api/v1/webhooks/${webhook.data.id}/test`)
  const affiliate = await ok('POST', `/api/v1/products/${product.id}/affiliates`, {
    email: `afiliada-${randomBytes(4).toString('hex')}@example.com`,
    commission_percent: 10,
  })
  const apiKey = await svc.api('POST', `/api/accounts/${creator.accountId}/api-keys`, {
    session: creator.session,
    body: { name: 'other', scopes: ['read:orders'] },
  })
  return {
    creator,
    key,
    ids: {
      accounts: creator.accountId,
      'api-keys': apiKey.body.data.id,
      products: product.id,
      affiliates: affiliate.data.id,
      orders: sale.body.order_id,
      members: member.id,
      access: member.access[0].id,
      refunds: refund.data.id,
      subscriptions: subscription.id,
      webhooks: webhook.data.id,
      'webhook-deliveries': delivery.data.delivery_id,
    },
  }
}

const scopeOf = (guard: Guard) =>
  typeof guard === 'object'
    ? (guard.scope ?? (guard.account !== 'session' ? guard.account : undefined))
    : undefined
const sessionOnly = (guard: Guard) =>
  guard === 'session' || (typeof guard === 'object' && guard.account === 'session')
const isWrite = (method: string) => method !== 'get'
/** The kind of the id in `{name}`: the path segment before it. */
const kindOf = (path: string, name: string) => {
  const segments = path.split('/')
  return segments[segments.indexOf(`{${name}}`) - 1] ?? ''
}

/** The operation's URL with each path id taken from `pick`, and its account query if any. */
function url(w: Walked, pick: (kind: string, name: string) => string): string {
  let out = w.path.replace(/\{([^}]+)\}/g, (_, name: string) => pick(kindOf(w.path, name), name))
  const from = typeof w.op['x-guard'] === 'object' ? w.op['x-guard'].from : undefined
  if (from?.startsWith('query.')) out += `?${from.slice(6)}=${pick('accounts', from.slice(6))}`
  return out
}

/** Calls the operation on A's ids with a body that would not validate: the guard answers first. */
const callOnA = (w: Walked, auth: { key?: string | undefined; session?: Session }) =>
  svc.api(
    w.method.toUpperCase(),
    url(w, (kind) => a.ids[kind] ?? randomUUID()),
    {
      ...auth,
      body: w.op.requestBody ? { nonsense: true } : undefined,
    },
  )

const unauthorized = (body: Record<string, unknown>) =>
  body.error === 'Unauthorized' && (body.success === undefined || body.success === false)

describe(`every route declares its guard (${engine})`, () => {
  it('the walk covers every operation of the document', () => {
    expect(operations.length).toBeGreaterThan(60)
    for (const { method, path, op } of operations) {
      expect(op['x-guard'], `${method} ${path}`).toBeDefined()
    }
  })

  it('401 without credentials, even with a body that would not validate', async () => {
    const problems: string[] = []
    for (const w of operations.filter((o) => o.op['x-guard'] !== 'public')) {
      const res = await callOnA(w, {})
      if (res.status !== 401 || !unauthorized(res.body)) {
        problems.push(`${w.method} ${w.path}: ${res.status} ${JSON.stringify(res.body)}`)
      }
    }
    expect(problems).toEqual([])
  })

  it('403 Missing scope for a key holding every scope but the one asked', async () => {
    const problems: string[] = []
    const keys = new Map<string, string>()
    for (const w of operations) {
      const scope = scopeOf(w.op['x-guard'])
      if (!scope) continue
      if (!keys.has(scope)) keys.set(scope, await a.creator.key(SCOPES.filter((s) => s !== scope)))
      const res = await callOnA(w, { key: keys.get(scope) })
      if (res.status !== 403 || res.body.error !== `Missing scope: ${scope}`) {
        problems.push(`${w.method} ${w.path}: ${res.status} ${JSON.stringify(res.body)}`)
      }
    }
    expect(keys.size).toBeGreaterThan(5)
    expect(problems).toEqual([])
  })

  it('a key is refused where only a session may act (401), and a non-admin at admin routes (403)', async () => {
    const problems: string[] = []
    let checked = 0
    for (const w of operations) {
      const guard = w.op['x-guard']
      const expected = sessionOnly(guard) ? 401 : guard === 'admin' ? 403 : undefined
      if (!expected) continue
      checked++
      const res = await callOnA(w, { key: a.key })
      const error = expected === 401 ? 'Unauthorized' : 'Admin only'
      if (res.status !== expected || res.body.error !== error) {
        problems.push(`${w.method} ${w.path}: ${res.status} ${JSON.stringify(res.body)}`)
      }
    }
    expect(checked).toBeGreaterThan(10)
    expect(problems).toEqual([])
  })

  it('a cookie write without the CSRF token is 403', async () => {
    const problems: string[] = []
    const noCsrf = { cookie: a.creator.session.cookie, csrf: '' }
    let checked = 0
    for (const w of operations) {
      const guard = w.op['x-guard']
      if (guard === 'public' || guard === 'admin' || !isWrite(w.method)) continue
      checked++
      const res = await callOnA(w, { session: noCsrf })
      if (res.status !== 403 || res.body.error !== 'Invalid CSRF token') {
        problems.push(`${w.method} ${w.path}: ${res.status} ${JSON.stringify(res.body)}`)
      }
    }
    expect(checked).toBeGreaterThan(20)
    expect(problems).toEqual([])
  })

  it("404 for each id of another account, the caller's own ids elsewhere", async () => {
    const problems: string[] = []
    let calls = 0
    for (const w of operations) {
      const guard = w.op['x-guard']
      const names = [
        ...[...w.path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1] ?? ''),
        ...(typeof guard === 'object' && guard.from?.startsWith('query.')
          ? [guard.from.slice(6)]
          : []),
      ]
      if (guard === 'public' || guard === 'admin' || names.length === 0) continue
      const kinds = names.map((name) =>
        w.path.includes(`{${name}}`) ? kindOf(w.path, name) : 'accounts',
      )
      const unknown = kinds.filter((kind) => !(kind in a.ids))
      if (unknown.length) {
        problems.push(`${w.method} ${w.path}: no id factory for ${unknown.join(', ')}`)
        continue
      }
      if (w.op.requestBody && !(w.op.operationId in BODIES)) {
        problems.push(`${w.method} ${w.path}: no valid body for ${w.op.operationId} in BODIES`)
        continue
      }
      for (const foreign of names) {
        const res = await svc.api(
          w.method.toUpperCase(),
          url(w, (kind, name) => (name === foreign ? a.ids[kind] : b.ids[kind]) ?? ''),
          {
            ...(sessionOnly(guard) ? { session: b.creator.session } : { key: b.key }),
            body: BODIES[w.op.operationId],
          },
        )
        calls++
        if (res.status !== 404) {
          problems.push(
            `${w.method} ${w.path} with A's ${foreign}: ${res.status} ${JSON.stringify(res.body)}`,
          )
        }
      }
    }
    expect(calls).toBeGreaterThan(30)
    expect(problems).toEqual([])
  })
})

describe('start-up', () => {
  it('refuses an /api route without a guard, or with an unknown scope, naming it', async () => {
    const app = Fastify()
    registerGuards(app, { scopes: ['read:orders'] })
    expect(() => app.get('/api/unguarded', async () => ({}))).toThrow(
      'GET /api/unguarded declares no guard',
    )
    expect(() =>
      app.get('/api/typo', { config: { guard: { scope: 'read:order' } } }, async () => ({})),
    ).toThrow('GET /api/typo asks for the unknown scope "read:order"')
    expect(() => app.get('/page', async () => '')).not.toThrow()
    await app.close()
  })
})
