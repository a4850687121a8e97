// Deliveries born claimed (handoff.ts): written already leased to the worker of the process
// that wrote them, handed over once their transaction has committed and sent with no claim. Whether a delivery
// was born so is read off its row: a claim is an UPDATE, so a row that kept the inserting
// transaction's xmin (the same as its event's: `untouched`) while its send is under way was
// never claimed.
import { sql } from 'kysely'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { withTx } from '../../../src/kit/db.ts'
import { createDeliveryHandoff } from '../../../src/modules/webhooks/handoff.ts'
import { webhooksRepo } from '../../../src/modules/webhooks/repo.ts'
import { emitEvent } from '../../../src/modules/webhooks/service.ts'
import { type Creator, signupCreator } from '../../setup/actors.ts'
import { eventually, startTestService, type TestService } from '../../setup/service.ts'
import { webhookHarness } from '../../setup/webhooks.ts'

let svc: TestService
let creator: Creator
let key: string
// Polls a minute apart: within a test only the hand-off brings a delivery to the worker.
beforeAll(async () => {
  svc = await startTestService({ WORKER_POLL_MS: '1m', WEBHOOK_ENDPOINT_CONCURRENCY: '1' })
})
// An account per test: a test's events reach its own endpoint only.
beforeEach(async () => {
  creator = await signupCreator(svc.api)
  key = await creator.key(['write:webhooks', 'read:webhooks'])
})
afterAll(() => svc?.stop())
const hooks = webhookHarness(
  () => svc,
  () => creator,
  () => key,
)
afterEach(() => hooks.closeReceivers())

/** A receiver that holds its answers until `release()`. */
async function heldReceiver() {
  let release!: () => void
  const held = new Promise<void>((resolve) => {
    release = resolve
  })
  const receiver = await hooks.receiver(() => ({ status: 200, hold: held }))
  return { ...receiver, release }
}

async function deliveryOf(eventId: string) {
  const { rows } = await sql<{ attempts: number; leased: boolean; untouched: boolean }>`
    SELECT d.attempts, d.locked_until IS NOT NULL AS leased,
      d.xmin::text = ev.xmin::text AS untouched
    FROM webhook_deliveries d JOIN events ev ON ev.id = d.event_id
    WHERE d.event_id = ${eventId}`.execute(svc.deps.db)
  expect(rows).toHaveLength(1)
  return rows[0]!
}

const attemptsLogged = async (endpointId: string) =>
  (await hooks.deliveries(endpointId)).map((d) => ({
    event_id: d.event_id,
    status: d.status,
    attempts: d.attempts.map((a) => a.attempt),
  }))

describe('webhook deliveries born claimed', () => {
  it('a delivery written beside a worker is born leased to it and sent without a claim', async () => {
    const r = await heldReceiver()
    const endpoint = await hooks.endpoint(r.url)
    const eventId = await withTx(svc.deps.db, async (tx) => {
      const id = await emitEvent(tx, svc.deps, {
        accountId: creator.accountId,
        type: 'order.paid',
        data: { order_id: 'born-1' },
      })
      // Written, not yet committed: nothing is handed over, so nothing goes out.
      await new Promise((resolve) => setTimeout(resolve, 200))
      expect(r.received).toHaveLength(0)
      return id
    })
    await eventually(async () => r.received.length === 1, 5_000)
    expect(r.received[0]!.body.id).toBe(eventId)
    expect(await deliveryOf(eventId)).toEqual({ attempts: 1, leased: true, untouched: true })
    // A poll finds nothing to claim: the lease is the worker's.
    const claimed = await webhooksRepo.claimDue(svc.deps.db, {
      now: svc.deps.clock.now(),
      limit: 10,
      perEndpoint: 4,
      leaseMs: 15_000,
    })
    expect(claimed).toHaveLength(0)
    r.release()
    await eventually(
      async () => (await attemptsLogged(endpoint.data.id))[0]?.status === 'delivered',
      5_000,
    )
    expect(await attemptsLogged(endpoint.data.id)).toEqual([
      { event_id: eventId, status: 'delivered', attempts: [1] },
    ])
  })

  it('an endpoint whose window is full gets its next delivery unclaimed, sent when the window frees', async () => {
    const r = await heldReceiver()
    const endpoint = await hooks.endpoint(r.url)
    const first = await hooks.emit('order.paid', { order_id: 'full-1' })
    await eventually(async () => r.received.length === 1, 5_000)
    // The window (WEBHOOK_ENDPOINT_CONCURRENCY 1) is taken by the first send.
    const second = await hooks.emit('order.paid', { order_id: 'full-2' })
    expect(await deliveryOf(second)).toEqual({ attempts: 0, leased: false, untouched: true })
    expect(r.received).toHaveLength(1)
    r.release()
    await eventually(
      async () =>
        (await attemptsLogged(endpoint.data.id)).every((d) => d.status === 'delivered') &&
        r.received.length === 2,
      5_000,
    )
    expect(r.received.map((req) => req.body.id)).toEqual([first, second])
    expect((await attemptsLogged(endpoint.data.id)).map((d) => d.attempts)).toEqual([[1], [1]])
  })

  it('a delivery born to a process that died is sent by another worker once its lease runs out', async () => {
    const r = await hooks.receiver()
    const endpoint = await hooks.endpoint(r.url)
    // Written as a process would whose worker died right after the commit: the hand-off
    // reaches no one.
    const dead = createDeliveryHandoff()
    dead.attach((now) => ({
      until: new Date(now.getTime() + 15_000),
      fullEndpoints: [],
      take: () => {},
    }))
    const eventId = await withTx(svc.deps.db, (tx) =>
      emitEvent(
        tx,
        { clock: svc.deps.clock, deliveryHandoff: dead },
        { accountId: creator.accountId, type: 'order.paid', data: { order_id: 'orphan' } },
      ),
    )
    expect(await deliveryOf(eventId)).toEqual({ attempts: 1, leased: true, untouched: true })
    expect(await hooks.pass()).toBe(0)
    expect(r.received).toHaveLength(0)
    await svc.deps.clock.advance(15_001)
    expect(await hooks.pass()).toBe(1)
    expect(r.received.map((req) => req.body.id)).toEqual([eventId])
    expect(await attemptsLogged(endpoint.data.id)).toEqual([
      { event_id: eventId, status: 'delivered', attempts: [2] },
    ])
  })

  it('a born delivery whose lease is too short to send by the hand-off is left to a poll', async () => {
    const r = await hooks.receiver()
    const endpoint = await hooks.endpoint(r.url)
    // This worker's own births, but with a lease shorter than a send's time-out (as after a
    // commit that took most of it).
    const live = svc.deps.deliveryHandoff
    const short = {
      ...live,
      birth: (now: Date) => {
        const birth = live.birth(now)
        return birth && { ...birth, until: new Date(now.getTime() + 1_000) }
      },
    }
    const late = await withTx(svc.deps.db, (tx) =>
      emitEvent(
        tx,
        { clock: svc.deps.clock, deliveryHandoff: short },
        { accountId: creator.accountId, type: 'order.paid', data: { order_id: 'late' } },
      ),
    )
    // Hand-offs come in commit order: once the next one is received, the late one was seen.
    const next = await hooks.emit('order.paid', { order_id: 'next' })
    await eventually(async () => r.received.length === 1, 5_000)
    expect(r.received.map((req) => req.body.id)).toEqual([next])
    expect(await deliveryOf(late)).toEqual({ attempts: 1, leased: true, untouched: true })
    await svc.deps.clock.advance(1_001)
    expect(await hooks.pass()).toBe(1)
    expect(r.received.map((req) => req.body.id)).toEqual([next, late])
    const logged = await attemptsLogged(endpoint.data.id)
    expect(logged.find((d) => d.event_id === late)).toEqual({
      event_id: late,
      status: 'delivered',
      attempts: [2],
    })
  })

  it('a large event is born too, whole', async () => {
    // The answer held until the row is read: once answered, the delivery is settled (an UPDATE).
    const r = await heldReceiver()
    await hooks.endpoint(r.url)
    const note = 'x'.repeat(9_000)
    const eventId = await hooks.emit('order.paid', { order_id: 'large', note })
    await eventually(async () => r.received.length === 1, 5_000)
    expect(r.received[0]!.body).toMatchObject({ id: eventId, data: { note } })
    expect(await deliveryOf(eventId)).toMatchObject({ attempts: 1, untouched: true })
    r.release()
  })
})
