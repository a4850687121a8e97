import { createHmac } from 'node:crypto'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { uuidv7 } from '../../../src/kit/ids.ts'
import { sealSecret } from '../../../src/modules/webhooks/service.ts'
import { type Creator, signupCreator } from '../../setup/actors.ts'
import type { Answer } from '../../setup/receiver.ts'
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

const { receiver, closeReceivers, endpoint, emit, deliveries } = webhookHarness(
  () => svc,
  () => creator,
  () => key,
)
afterEach(closeReceivers)

/** The Standard Webhooks check as its spec writes it: HMAC-SHA256 of `id.timestamp.body` keyed
 *  with the base64 bytes after `whsec_`, any of the space-separated `v1,` signatures. */
function standardWebhookValid(secret: string, headers: Record<string, unknown>, body: string) {
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64')
  const signed = `${headers['webhook-id']}.${headers['webhook-timestamp']}.${body}`
  const expected = `v1,${createHmac('sha256', key).update(signed).digest('base64')}`
  return String(headers['webhook-signature']).split(' ').includes(expected)
}

const getEndpoint = async (id: string) =>
  (await svc.api('GET', `/api/v1/webhooks/${id}`, { key })).body.data

const mailsTo = async (to: string) =>
  (await svc.api('GET', `/api/dev/emails?to=${to}`)).body.data as {
    subject: string
    text: string
  }[]

describe(`webhook endpoints, managed (${engine})`, () => {
  it('patch url, events and is_active; an inactive endpoint gets nothing queued', async () => {
    const first = await receiver()
    const second = await receiver()
    const { data } = await endpoint(first.url)

    const patched = await svc.api('PATCH', `/api/v1/webhooks/${data.id}`, {
      key,
      body: { url: second.url, events: ['refund.requested'] },
    })
    expect(patched.body.data).toMatchObject({ url: second.url, events: ['refund.requested'] })
    await emit('order.paid')
    await emit('refund.requested', { refund_id: 'r1' })
    await eventually(async () => second.received.length === 1)
    expect(second.received[0]!.body.event).toBe('refund.requested')
    expect(first.received).toHaveLength(0)

    const off = await svc.api('PATCH', `/api/v1/webhooks/${data.id}`, {
      key,
      body: { is_active: false },
    })
    expect(off.body.data).toMatchObject({ is_active: false, disabled_reason: 'manual' })
    await emit('refund.requested', { refund_id: 'r2' })
    expect(await deliveries(data.id)).toHaveLength(1)

    await svc.api('PATCH', `/api/v1/webhooks/${data.id}`, { key, body: { is_active: true } })
    await emit('refund.requested', { refund_id: 'r3' })
    await eventually(async () => second.received.length === 2)
    expect(second.received[1]!.body.data.refund_id).toBe('r3')

    const bad = await svc.api('PATCH', `/api/v1/webhooks/${data.id}`, {
      key,
      body: { url: 'https://10.1.2.3/hooks' },
    })
    expect(bad.status).toBe(400)
    expect((await svc.api('PATCH', `/api/v1/webhooks/${data.id}`, { key, body: {} })).status).toBe(
      400,
    )
  })

  it('rotating the secret: both secrets sign for 24 h, then only the new one', async () => {
    const r = await receiver()
    const created = await endpoint(r.url)
    const rotated = await svc.api('POST', `/api/v1/webhooks/${created.data.id}/rotate-secret`, {
      key,
    })
    expect(rotated.status).toBe(200)
    const fresh = rotated.body.secret as string
    expect(fresh).toMatch(/^whsec_/)
    expect(fresh).not.toBe(created.secret)

    await emit('order.paid', { order_id: 'during' })
    await eventually(async () => r.received.length === 1)
    const during = r.received[0]!
    expect(standardWebhookValid(fresh, during.headers, during.raw)).toBe(true)
    expect(standardWebhookValid(created.secret, during.headers, during.raw)).toBe(true)
    expect(during.headers['x-service-signature']).toBe(
      `sha256=${createHmac('sha256', fresh).update(during.raw).digest('hex')}`,
    )

    // Moving the clock a day while the first send is still unrecorded would expire its lease
    // and send it again (at-least-once), so wait for it to be settled first.
    await eventually(async () => (await deliveries(created.data.id))[0]?.status === 'delivered')
    await svc.api('POST', '/sandbox/clock/advance', { body: { seconds: 24 * 3600 + 1 } })
    await emit('order.paid', { order_id: 'after' })
    const after = await eventually(async () =>
      r.received.find((req) => req.body.data.order_id === 'after'),
    )
    expect(standardWebhookValid(fresh, after.headers, after.raw)).toBe(true)
    expect(standardWebhookValid(created.secret, after.headers, after.raw)).toBe(false)
  })

  it('a test event reaches the endpoint whatever it subscribes to', async () => {
    const r = await receiver()
    const { data } = await endpoint(r.url, ['refund.requested'])
    const sent = await svc.api('POST', `/api/v1/webhooks/${data.id}/test`, { key })
    expect(sent.status).toBe(202)
    await eventually(async () => r.received.length === 1)
    expect(r.received[0]!.body).toMatchObject({
      id: sent.body.data.event_id,
      event: 'webhook.test',
      data: { endpoint_id: data.id },
    })
  })

  it('a failed delivery retried by hand gets one more attempt; retry-since retries the rest', async () => {
    let up = false
    const r = await receiver(() => (up ? 200 : 500))
    const { data } = await endpoint(r.url)
    await emit('order.paid', { order_id: 'a' })
    await emit('order.paid', { order_id: 'b' })
    await eventually(async () => (await deliveries(data.id)).every((d) => d.status === 'failed'))
    const [newest, oldest] = await deliveries(data.id)
    expect(oldest!.attempts).toHaveLength(5)

    const again = await svc.api('POST', `/api/v1/webhook-deliveries/${oldest!.id}/retry`, { key })
    expect(again.status).toBe(202)
    await eventually(async () => (await deliveries(data.id))[1]!.attempts.length === 6)
    expect((await deliveries(data.id))[1]!.status).toBe('failed')

    up = true
    const since = new Date(Date.now() - 3_600_000).toISOString()
    const all = await svc.api('POST', `/api/v1/webhooks/${data.id}/retry`, {
      key,
      body: { since },
    })
    expect(all.body.data).toEqual({ retried: 2 })
    await eventually(async () => (await deliveries(data.id)).every((d) => d.status === 'delivered'))
    expect(r.received.filter((x) => x.body.id === newest!.event_id)).toHaveLength(6)

    const done = await svc.api('POST', `/api/v1/webhook-deliveries/${oldest!.id}/retry`, { key })
    expect(done.status).toBe(409)
    const other = await (await signupCreator(svc.api)).key(['write:webhooks'])
    const foreign = await svc.api('POST', `/api/v1/webhook-deliveries/${oldest!.id}/retry`, {
      key: other,
    })
    expect(foreign.status).toBe(404)
  })

  it('Retry-After is honoured on 429; a 302 is not followed', async () => {
    const r = await receiver(
      (req): Answer =>
        req.body.event === 'refund.requested'
          ? { status: 302, headers: { location: 'https://example.com/' } }
          : r.received.filter((x) => x.body.event === 'order.paid').length === 1
            ? { status: 429, headers: { 'retry-after': '2' } }
            : 200,
    )
    const { data } = await endpoint(r.url, ['order.paid', 'refund.requested'])
    await emit('order.paid')
    await eventually(
      async () => r.received.filter((x) => x.body.event === 'order.paid').length === 2,
    )
    const [first, second] = r.received
    expect(second!.at - first!.at).toBeGreaterThanOrEqual(1_900)

    await emit('refund.requested', { refund_id: 'r' })
    const redirected = await eventually(async () =>
      (await deliveries(data.id)).find((d) => d.event === 'refund.requested' && d.attempts.length),
    )
    // Followed, the attempt would carry the redirect target's answer instead of the 302.
    expect(redirected.attempts[0]).toMatchObject({
      status_code: 302,
      error: 'redirect (302) not followed',
    })
  })

  it('410 disables the endpoint at once and e-mails its owner', async () => {
    const r = await receiver(() => 410)
    const { data } = await endpoint(r.url)
    await emit('order.paid')
    await eventually(async () => (await getEndpoint(data.id)).is_active === false)
    expect(await getEndpoint(data.id)).toMatchObject({ disabled_reason: 'gone' })
    expect(r.received).toHaveLength(1)
    const [mail] = await eventually(async () => {
      const list = await mailsTo(creator.email)
      return list.length ? list : null
    })
    expect(mail!.subject).toBe('Webhook desativado na Vitrine')
    expect(mail!.text).toContain('410 (Gone)')
  })

  it('an endpoint failing for 24 h straight is disabled; a success in between resets the streak', async () => {
    let healthy = false
    const r = await receiver(() => (healthy ? 200 : 500))
    const { data } = await endpoint(r.url)
    await emit('order.paid', { order_id: 'first-failure' })
    await eventually(async () => (await deliveries(data.id))[0]!.status === 'failed')

    await svc.api('POST', '/sandbox/clock/advance', { body: { seconds: 12 * 3600 } })
    healthy = true
    await emit('order.paid', { order_id: 'success' })
    await eventually(async () => (await deliveries(data.id))[0]!.status === 'delivered')
    healthy = false
    await emit('order.paid', { order_id: 'second-failure' })
    await eventually(async () => (await deliveries(data.id))[0]!.status === 'failed')

    await svc.api('POST', '/sandbox/clock/advance', { body: { seconds: 12 * 3600 + 60 } })
    await emit('order.paid', { order_id: 'still-failing' })
    await eventually(async () => (await deliveries(data.id))[0]!.status === 'failed')
    expect((await getEndpoint(data.id)).is_active).toBe(true)

    await svc.api('POST', '/sandbox/clock/advance', { body: { seconds: 12 * 3600 } })
    await emit('order.paid', { order_id: 'a-day-of-failures' })
    await eventually(async () => (await getEndpoint(data.id)).is_active === false)
    expect((await getEndpoint(data.id)).disabled_reason).toBe('failing')
  })

  it('a slow endpoint never delays another account’s deliveries', async () => {
    const slow = await receiver(() => ({ status: 200, delayMs: 3_000 }))
    const { data: slowEndpoint } = await endpoint(slow.url)
    for (let i = 0; i < 30; i++) await emit('order.paid', { order_id: `slow-${i}` })
    await eventually(async () => slow.received.length >= 1)

    const other = await signupCreator(svc.api)
    const otherKey = await other.key(['write:webhooks'])
    const fast = await receiver()
    const made = await svc.api('POST', '/api/v1/webhooks', {
      key: otherKey,
      body: { url: fast.url, events: ['order.paid'] },
    })
    expect(made.status).toBe(201)
    const started = performance.now()
    await webhookHarness(
      () => svc,
      () => other,
      () => otherKey,
    ).emit('order.paid', { order_id: 'fast' })
    await eventually(async () => fast.received.length === 1)
    expect(performance.now() - started).toBeLessThan(2_000)
    // The slow endpoint never had more than its concurrency cap (4) in flight.
    expect(slow.received.length).toBeLessThanOrEqual(4)
    expect((await deliveries(slowEndpoint.id)).every((d) => d.status === 'pending')).toBe(true)
  })

  it('the delivery log keeps the first 4 KB of each response body', async () => {
    // Quotes, braces, a backslash and NULL survive the array parameters successes are written with.
    const answer = `{"ok": "\\ NULL {a,b}"} ${'a'.repeat(10_240)}`
    const big = await receiver(() => ({ status: 200, body: answer }))
    // 1 + 2 × 5,000 bytes: byte 4,096 is the first half of an "é", and a NUL follows.
    const accented = await receiver(() => ({ status: 500, body: `x${'é'.repeat(5_000)}\0` }))
    const { data: bigEndpoint } = await endpoint(big.url)
    const { data: accentedEndpoint } = await endpoint(accented.url, ['refund.requested'])
    await emit('order.paid')
    await emit('refund.requested', { refund_id: 'r' })
    const [kept] = await eventually(async () => {
      const [d] = await deliveries(bigEndpoint.id)
      return d?.status === 'delivered' ? d.attempts : null
    })
    expect(kept!.response_body).toBe(answer.slice(0, 4_096))
    const [cut] = await eventually(async () => {
      const attempts = (await deliveries(accentedEndpoint.id))[0]?.attempts
      return attempts?.length ? attempts : null
    })
    expect(cut!.status_code).toBe(500)
    expect(cut!.response_body).toBe(`x${'é'.repeat(2_047)}`)
    expect(Buffer.byteLength(cut!.response_body!)).toBe(4_095)
  })

  it('another account’s key gets 404 on every endpoint and delivery route, and changes nothing', async () => {
    const r = await receiver(() => 500)
    const { data, secret } = await endpoint(r.url)
    await emit('order.paid', { order_id: 'owned' })
    const [failed] = await eventually(async () => {
      const list = await deliveries(data.id)
      return list[0]?.status === 'failed' ? list : null
    })
    const callsBefore = r.received.length

    const intruder = await signupCreator(svc.api)
    const intruderKey = await intruder.key(['read:webhooks', 'write:webhooks'])
    const since = new Date(Date.now() - 3_600_000).toISOString()
    const calls: [string, string, object?][] = [
      ['GET', `/api/v1/webhooks/${data.id}`],
      ['PATCH', `/api/v1/webhooks/${data.id}`, { url: 'http://127.0.0.1:9/stolen' }],
      ['PATCH', `/api/v1/webhooks/${data.id}`, { is_active: false }],
      ['POST', `/api/v1/webhooks/${data.id}/rotate-secret`],
      ['POST', `/api/v1/webhooks/${data.id}/test`],
      ['GET', `/api/v1/webhooks/${data.id}/deliveries`],
      ['POST', `/api/v1/webhook-deliveries/${failed!.id}/retry`],
      ['POST', `/api/v1/webhooks/${data.id}/retry`, { since }],
      ['DELETE', `/api/v1/webhooks/${data.id}`],
    ]
    for (const [method, path, body] of calls) {
      const res = await svc.api(method, path, { key: intruderKey, ...(body ? { body } : {}) })
      expect(res.status, `${method} ${path}`).toBe(404)
      expect(res.body, `${method} ${path}`).toMatchObject({ error: expect.any(String) })
    }

    // The owner's endpoint is untouched: same url, active, secret not rotated, no test event
    // queued, the failed delivery not retried, not deleted.
    const after = await svc.api('GET', `/api/v1/webhooks/${data.id}`, { key })
    expect(after.status).toBe(200)
    expect(after.body.data).toEqual(data)
    const log = await deliveries(data.id)
    expect(log.map((d) => [d.id, d.status, d.attempts.length])).toEqual([[failed!.id, 'failed', 5]])
    await emit('order.paid', { order_id: 'after' })
    await eventually(async () => r.received.length > callsBefore)
    const signedWith = r.received.at(-1)!
    expect(standardWebhookValid(secret, signedWith.headers, signedWith.raw)).toBe(true)
    expect(r.received.slice(callsBefore).every((x) => x.body.event === 'order.paid')).toBe(true)
  })

  it('a host name that resolves to loopback is refused at send time too (DNS changed after creation)', async () => {
    const guarded = await startTestService({ ALLOW_HTTP_WEBHOOKS: '0' })
    try {
      const owner = await signupCreator(guarded.api)
      const r = await receiver()
      const now = new Date()
      // Created when the name still pointed elsewhere; now it resolves to 127.0.0.1.
      const endpointId = uuidv7(now.getTime())
      await guarded.deps.db
        .insertInto('webhook_endpoints')
        .values({
          id: endpointId,
          account_id: owner.accountId,
          url: `http://localhost:${r.port}/hooks`,
          events: ['order.paid'],
          secret_sealed: sealSecret(guarded.deps, 'whsec_dGVzdA=='),
          created_at: now,
          updated_at: now,
        })
        .execute()
      await webhookHarness(
        () => guarded,
        () => owner,
        () => '',
      ).emit('order.paid')
      const attempt = await eventually(async () =>
        guarded.deps.db
          .selectFrom('webhook_attempts')
          .innerJoin('webhook_deliveries', 'webhook_deliveries.id', 'webhook_attempts.delivery_id')
          .select('webhook_attempts.error')
          .where('webhook_deliveries.endpoint_id', '=', endpointId)
          .executeTakeFirst(),
      )
      expect(attempt.error).toBe('EADDRNOTALLOWED')
      expect(r.received).toHaveLength(0)
    } finally {
      await guarded.stop()
    }
  })

  it('a committed event wakes the worker at once (NOTIFY), without waiting for its poll', async () => {
    const sleepy = await startTestService({ WORKER_POLL_MS: '1m' })
    try {
      const owner = await signupCreator(sleepy.api)
      const ownerKey = await owner.key(['write:webhooks'])
      const hooks = webhookHarness(
        () => sleepy,
        () => owner,
        () => ownerKey,
      )
      const r = await receiver()
      await hooks.endpoint(r.url)
      // After this pass (found nothing) the worker listens and sleeps for a minute: only the
      // notification can bring the delivery within the next seconds.
      expect(await hooks.pass()).toBe(0)
      await hooks.emit('order.paid')
      await eventually(async () => r.received.length === 1, 5_000)
    } finally {
      await sleepy.stop()
    }
  })
})
