// Claim fencing: a worker whose lease expired while it was sending, and whose delivery another
// worker has claimed since, must not settle that delivery. No worker runs in this service: the
// test plays both workers with the real claim statement and the real outcome recorder.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createRecorder, type Outcome } from '../../../src/modules/webhooks/record.ts'
import { type ClaimedDelivery, webhooksRepo } from '../../../src/modules/webhooks/repo.ts'
import type { SendResult } from '../../../src/modules/webhooks/sender.ts'
import { type Creator, signupCreator } from '../../setup/actors.ts'
import { engine, startTestService, type TestService } from '../../setup/service.ts'
import { webhookHarness } from '../../setup/webhooks.ts'

let svc: TestService
let creator: Creator
let key: string
beforeAll(async () => {
  svc = await startTestService({ ROLE: 'api' })
  creator = await signupCreator(svc.api)
  key = await creator.key(['write:webhooks', 'read:webhooks'])
})
afterAll(() => svc?.stop())
const hooks = webhookHarness(
  () => svc,
  () => creator,
  () => key,
)

const LEASE_MS = 15_000
const answered = (statusCode: number): SendResult => ({
  ok: statusCode < 300,
  statusCode,
  durationMs: 3,
  error: statusCode < 300 ? null : `HTTP ${statusCode}`,
  responseBody: 'ok',
  retryAfterMs: null,
})

/** One worker's claim at `at`: the single due delivery of this test's endpoint. */
async function claim(endpointId: string, at: Date): Promise<ClaimedDelivery> {
  const claimed = await webhooksRepo.claimDue(svc.deps.db, {
    now: at,
    limit: 10,
    perEndpoint: 4,
    leaseMs: LEASE_MS,
  })
  const mine = claimed.filter((d) => d.endpoint_id === endpointId)
  expect(mine).toHaveLength(1)
  return mine[0]!
}

const row = (id: string) =>
  svc.deps.db
    .selectFrom('webhook_deliveries')
    .select(['status', 'attempts', 'locked_until', 'last_status_code', 'next_attempt_at'])
    .where('id', '=', id)
    .executeTakeFirstOrThrow()

const endpointRow = (id: string) =>
  svc.deps.db
    .selectFrom('webhook_endpoints')
    .select(['is_active', 'failing_since'])
    .where('id', '=', id)
    .executeTakeFirstOrThrow()

const attemptsLogged = (deliveryId: string) =>
  svc.deps.db
    .selectFrom('webhook_attempts')
    .select(['attempt', 'status_code'])
    .where('delivery_id', '=', deliveryId)
    .orderBy('attempt')
    .orderBy('created_at')
    .execute()

describe(`claim fencing (${engine})`, () => {
  it('a worker whose lease expired and was re-claimed settles nothing; the new holder does', async () => {
    const { data: endpoint } = await hooks.endpoint('http://127.0.0.1:9/hooks')
    await hooks.emit('order.paid')
    const record = createRecorder(svc.deps)
    const t0 = svc.deps.clock.now()
    const stale = await claim(endpoint.id, t0)
    expect(stale.attempts).toBe(1)
    // Its lease runs out while it waits on the receiver; another worker claims the delivery.
    const t1 = new Date(t0.getTime() + LEASE_MS + 5_000)
    const fresh = await claim(endpoint.id, t1)
    expect(fresh).toMatchObject({ id: stale.id, attempts: 2 })
    const before = await row(stale.id)

    // The stale worker comes back with a success, a 500 and a 410: the delivery, its lease and
    // its endpoint are untouched, though each attempt it made is logged.
    const late = (status: number): Outcome => ({
      delivery: stale,
      result: answered(status),
      at: new Date(t1.getTime() + 1_000),
    })
    await record(late(200))
    await record(late(500))
    await record(late(410))
    expect(await row(stale.id)).toEqual(before)
    expect(before).toMatchObject({ status: 'pending', attempts: 2 })
    expect(before.locked_until!.getTime()).toBe(t1.getTime() + LEASE_MS)
    expect(await endpointRow(endpoint.id)).toEqual({ is_active: true, failing_since: null })

    // The current holder's result counts.
    await record({ delivery: fresh, result: answered(200), at: new Date(t1.getTime() + 2_000) })
    expect(await row(stale.id)).toMatchObject({
      status: 'delivered',
      attempts: 2,
      locked_until: null,
      last_status_code: 200,
    })
    expect((await attemptsLogged(stale.id)).map((a) => [a.attempt, a.status_code])).toEqual([
      [1, 200],
      [1, 500],
      [1, 410],
      [2, 200],
    ])
  })

  it('a late result whose lease expired but was never re-claimed still settles the delivery', async () => {
    const { data: endpoint } = await hooks.endpoint('http://127.0.0.1:9/hooks')
    await hooks.emit('order.paid')
    const record = createRecorder(svc.deps)
    const t0 = svc.deps.clock.now()
    const slow = await claim(endpoint.id, t0)
    const late = new Date(t0.getTime() + LEASE_MS + 5_000)
    await record({ delivery: slow, result: answered(500), at: late })
    const after = await row(slow.id)
    expect(after).toMatchObject({ status: 'pending', attempts: 1, locked_until: null })
    expect(after.next_attempt_at.getTime()).toBeGreaterThan(late.getTime())
    expect((await endpointRow(endpoint.id)).failing_since).toEqual(late)
  })
})
