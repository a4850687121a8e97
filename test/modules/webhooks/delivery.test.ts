import { createHmac } from 'node:crypto'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { withTx } from '../../../src/kit/db.ts'
import { emitEvent } from '../../../src/modules/webhooks/service.ts'
import { verifyStandardWebhook } from '../../../src/modules/webhooks/signature.ts'
import { type Creator, signupCreator } from '../../setup/actors.ts'
import { engine, eventually, startTestService, type TestService } from '../../setup/service.ts'
import { webhookHarness } from '../../setup/webhooks.ts'

let svc: TestService
let creator: Creator
let key: string

beforeAll(async () => {
  svc = await startTestService()
  creator = await signupCreator(svc.api)
  key = await creator.key(['write:webhooks', 'read:webhooks'])
})
afterAll(() => svc?.stop())
const { receiver, closeReceivers, endpoint, emit, pass, deliveries } = webhookHarness(
  () => svc,
  () => creator,
  () => key,
)
afterEach(closeReceivers)

describe(`webhook delivery (${engine})`, () => {
  it('signs each delivery with x-service-signature and the Standard Webhooks headers', async () => {
    const r = await receiver()
    const { secret } = await endpoint(r.url)
    const eventId = await emit('order.paid', { order_id: 'abc', amount: 10 })
    await eventually(async () => r.received.length === 1)
    const [got] = r.received
    expect(got!.body).toMatchObject({
      id: eventId,
      event: 'order.paid',
      data: { order_id: 'abc', amount: 10 },
    })
    expect(got!.body.created_at).toMatch(/Z$/)
    expect(got!.headers['x-service-signature']).toBe(
      `sha256=${createHmac('sha256', secret).update(got!.raw).digest('hex')}`,
    )
    expect(got!.headers['webhook-id']).toBe(eventId)
    expect(verifyStandardWebhook(secret, got!.headers as Record<string, string>, got!.raw)).toBe(
      true,
    )
  })

  it('500, 500, 200 → delivered on the third attempt with the same event id, each attempt logged', async () => {
    let calls = 0
    const r = await receiver(() => (++calls < 3 ? 500 : 200))
    const { data } = await endpoint(r.url)
    const eventId = await emit('order.paid')
    await eventually(async () => (await deliveries(data.id))[0]?.status === 'delivered')
    expect(r.received.map((x) => x.body.id)).toEqual([eventId, eventId, eventId])
    const [delivery] = await deliveries(data.id)
    expect(delivery!.attempts.map((a) => [a.attempt, a.status_code])).toEqual([
      [1, 500],
      [2, 500],
      [3, 200],
    ])
  })

  it('a dead endpoint is tried exactly 5 times, then the delivery is failed', async () => {
    const r = await receiver(() => 503)
    const { data } = await endpoint(r.url)
    await emit('order.paid')
    await eventually(async () => (await deliveries(data.id))[0]?.status === 'failed', 15_000)
    expect(r.received).toHaveLength(5)
    const [delivery] = await deliveries(data.id)
    expect(delivery!.attempts).toHaveLength(5)
    await pass()
    expect(r.received).toHaveLength(5)
  })

  it('only subscribed events are delivered; deleted endpoints get nothing queued', async () => {
    const subscribed = await receiver()
    const deleted = await receiver()
    const a = await endpoint(subscribed.url, ['refund.requested'])
    const b = await endpoint(deleted.url, ['order.paid', 'refund.requested'])
    expect((await svc.api('DELETE', `/api/v1/webhooks/${b.data.id}`, { key })).status).toBe(204)
    await emit('order.paid')
    await emit('refund.requested', { refund_id: 'r1' })
    await pass()
    expect(subscribed.received.map((x) => x.body.event)).toEqual(['refund.requested'])
    expect(deleted.received).toHaveLength(0)
    expect((await deliveries(a.data.id)).length).toBe(1)
    expect((await svc.api('GET', `/api/v1/webhooks/${b.data.id}/deliveries`, { key })).status).toBe(
      404,
    )
  })

  it('an event written in a transaction that rolls back is never delivered', async () => {
    const r = await receiver()
    await endpoint(r.url)
    await expect(
      withTx(svc.deps.db, async (tx) => {
        await emitEvent(tx, svc.deps, {
          accountId: creator.accountId,
          type: 'order.paid',
          data: { order_id: 'gone' },
        })
        throw new Error('rollback')
      }),
    ).rejects.toThrow('rollback')
    await emit('order.paid', { order_id: 'kept' })
    await pass()
    expect(r.received.map((x) => x.body.data.order_id)).toEqual(['kept'])
  })
})

describe(`webhook endpoints API (${engine})`, () => {
  it('shows the secret once, lists without it, isolates accounts, checks scopes', async () => {
    const r = await receiver()
    const created = await endpoint(r.url)
    expect(created.secret).toMatch(/^whsec_/)
    const one = await svc.api('GET', `/api/v1/webhooks/${created.data.id}`, { key })
    expect(one.body.data).toEqual(created.data)
    expect(JSON.stringify(one.body)).not.toContain(created.secret)

    const other = await signupCreator(svc.api)
    const otherKey = await other.key(['read:webhooks', 'write:webhooks'])
    expect(
      (await svc.api('GET', `/api/v1/webhooks/${created.data.id}`, { key: otherKey })).status,
    ).toBe(404)
    expect((await svc.api('GET', '/api/v1/webhooks', { key: otherKey })).body.data).toEqual([])

    const readOnly = await creator.key(['read:webhooks'])
    const denied = await svc.api('POST', '/api/v1/webhooks', {
      key: readOnly,
      body: { url: r.url, events: ['order.paid'] },
    })
    expect(denied).toMatchObject({ status: 403, body: { error: 'Missing scope: write:webhooks' } })
    expect(
      (await svc.api('POST', '/api/v1/webhooks', { body: { url: r.url, events: ['order.paid'] } }))
        .status,
    ).toBe(401)
  })

  it('refuses unknown events, plain http outside loopback and private addresses', async () => {
    const cases = [
      { url: 'https://example.com/h', events: ['order.exploded'] },
      { url: 'http://example.com/h', events: ['order.paid'] },
      { url: 'https://10.0.0.1/h', events: ['order.paid'] },
      { url: 'https://169.254.169.254/latest', events: ['order.paid'] },
      { url: 'ftp://127.0.0.1/h', events: ['order.paid'] },
    ]
    for (const body of cases) {
      const res = await svc.api('POST', '/api/v1/webhooks', { key, body })
      expect(res.status, body.url).toBe(400)
    }
  })
})
