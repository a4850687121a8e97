// The delivery worker. It leases due deliveries fairly across endpoints (up to each endpoint's
// window, which adapts to how fast it answers: concurrency.ts; see repo.claimDue), or takes
// them born leased from this process's own writes (handoff.ts), sends each signed without
// waiting for the others, so a slow endpoint only ever holds its own slots, and records every
// attempt. Retries follow the configured schedule with jitter (Retry-After on 429/503 when
// longer, see retry.ts) up to the delivery's max_attempts (5, one more per manual retry); 410
// or 24 h of failures disables the endpoint (record.ts).
import type { Deps } from '../../deps.ts'
import { startPoller } from '../../kit/jobs.ts'
import type { WorkerFactory } from '../../workers.ts'
import { createEndpointWindows, type EndpointWindows } from './concurrency.ts'
import type { DeliveryBirthPlanner } from './handoff.ts'
import { createRecorder, type Recorder, recordEndpointGone } from './record.ts'
import {
  type BornDelivery,
  type ClaimedDelivery,
  DELIVERIES_CHANNEL,
  webhooksRepo as repo,
} from './repo.ts'
import { createWebhookSender, type WebhookSender } from './sender.ts'
import { cachedSecretOpener, liveSecrets } from './service.ts'
import { signWebhook } from './signature.ts'
import { guardedLookup, isAllowedAddress } from './url-guard.ts'

/** Sends in flight at once in one worker process. */
const MAX_IN_FLIGHT = 128
/**
 * A backlog is claimed in batches: with sends in flight, a pass claims only once this many
 * slots are free, not one delivery per finished send (each claim is a statement).
 */
const REFILL_AT = 32
/**
 * When the last claim came back short (the queue or the endpoints' caps are the limit, not our
 * room), the next waits this long after it: deliveries committed and slots freed meanwhile are
 * claimed together instead of one statement per purchase (at 100 sales/s, 1.2 claims a sale
 * with a 3 ms gap that waited only while sends were in flight). At most this much is added to
 * a delivery's delay, well inside the 250 ms its p99 may take (issue 13).
 */
const SHORT_CLAIM_GAP_MS = 20

export const startWebhookWorker: WorkerFactory = (deps) => {
  const allowLoopback = deps.config.allowHttpWebhooks
  const sender = createWebhookSender({
    timeoutMs: deps.config.webhookTimeoutMs,
    lookup: guardedLookup(allowLoopback),
    allowAddress: (address) => isAllowedAddress(address, allowLoopback),
    maxSockets: MAX_IN_FLIGHT,
  })
  const record = createRecorder(deps)
  const open = cachedSecretOpener(deps)
  const windows = createEndpointWindows(deps.config.webhookEndpointConcurrency)
  const leaseMs = deps.config.webhookTimeoutMs + 5_000
  const inFlight = new Set<Promise<void>>()
  /** Sends in flight from this worker, per endpoint (its window's use). */
  const sendsTo = new Map<string, number>()
  /** Born deliveries whose endpoint's window filled between their birth and their commit. */
  const held = new Map<string, BornDelivery[]>()
  let heldCount = 0
  /**
   * Unclaimed deliveries may be due: a wake-up came (one was committed somewhere), a birth was
   * declined here, or the last claim found some or ran while a window was full (more may wait
   * behind it). Counted, so a claim under way cannot clear one that came meanwhile. A born
   * send that ends kicks a pass only then: otherwise each would cost a claim finding nothing.
   */
  let unclaimedSignals = 1
  let unclaimedSeen = 0
  let starved = true
  let lastClaimAt = 0
  let gapTimer: NodeJS.Timeout | null = null
  let stopped = false

  const hasRoom = (endpointId: string) =>
    (sendsTo.get(endpointId) ?? 0) < windows.limitOf(endpointId)
  const send = (delivery: ClaimedDelivery, born: boolean) => {
    const endpointId = delivery.endpoint_id
    sendsTo.set(endpointId, (sendsTo.get(endpointId) ?? 0) + 1)
    const sending: Promise<void> = deliverOne(deps, { sender, record, open, windows }, delivery)
      .catch((error) => deps.log.error({ err: error }, 'webhook delivery failed'))
      .finally(() => {
        inFlight.delete(sending)
        const left = sendsTo.get(endpointId)! - 1
        if (left) sendsTo.set(endpointId, left)
        else sendsTo.delete(endpointId)
        sendHeld(endpointId)
        if (!born || unclaimedSignals !== unclaimedSeen) poller.kick()
      })
    inFlight.add(sending)
  }
  // A lease too short for a whole send (a slow commit, a long hold) is left to run out: a
  // poll claims the delivery again then, rather than two workers sending it at once.
  const leaseLeft = (delivery: BornDelivery) =>
    deps.clock.now().getTime() < delivery.locked_until.getTime() - deps.config.webhookTimeoutMs
  const sendHeld = (endpointId: string) => {
    const queue = held.get(endpointId)
    while (queue?.length && hasRoom(endpointId)) {
      const next = queue.shift()!
      heldCount--
      if (leaseLeft(next)) send(next, true)
    }
    if (queue && !queue.length) held.delete(endpointId)
  }
  const takeBorn = (delivery: BornDelivery) => {
    if (stopped || !leaseLeft(delivery)) return
    if (hasRoom(delivery.endpoint_id)) return send(delivery, true)
    const queue = held.get(delivery.endpoint_id)
    if (queue) queue.push(delivery)
    else held.set(delivery.endpoint_id, [delivery])
    heldCount++
  }
  // Handed over after the writer's commit (kit/after-commit.ts): nothing may throw back there.
  const takeAllBorn = (deliveries: BornDelivery[]) => {
    try {
      for (const delivery of deliveries) takeBorn(delivery)
    } catch (error) {
      deps.log.error({ err: error }, 'born webhook deliveries not taken')
    }
  }
  // Births only while this worker keeps up (no backlog: its last claim found less than its
  // room) and has room beyond what its claims need; never to an endpoint whose window is full.
  const planBirth: DeliveryBirthPlanner = (now) => {
    if (!starved || inFlight.size + heldCount > MAX_IN_FLIGHT - REFILL_AT) {
      unclaimedSignals++
      return null
    }
    const fullEndpoints = [...sendsTo.keys()].filter((endpointId) => !hasRoom(endpointId))
    if (fullEndpoints.length) unclaimedSignals++
    return { until: new Date(now.getTime() + leaseMs), fullEndpoints, take: takeAllBorn }
  }
  const detachBirths = deps.deliveryHandoff.attach(planBirth)

  const poller = startPoller({
    name: 'webhooks.deliver',
    intervalMs: deps.config.workerPollMs,
    pass: async ({ requested }) => {
      const room = MAX_IN_FLIGHT - inFlight.size
      if (room <= 0) return 0
      // The batching waits below save statements under load; a requested pass claims now.
      if (!requested) {
        if (inFlight.size > 0 && !starved && room < REFILL_AT) return 0
        const wait = lastClaimAt + SHORT_CLAIM_GAP_MS - performance.now()
        if (starved && wait > 0) {
          gapTimer ??= setTimeout(() => {
            gapTimer = null
            poller.kick()
          }, wait)
          return 0
        }
      }
      lastClaimAt = performance.now()
      const signals = unclaimedSignals
      // Nothing found behind a full window is no proof there is nothing: the signals stay.
      const windowFull = [...sendsTo.keys()].some((endpointId) => !hasRoom(endpointId))
      // Claims and results commit relaxed (kit/db.ts): a database crash can only send again.
      const claimed = await repo.claimDue(deps.database.relaxed, {
        now: deps.clock.now(),
        limit: room,
        perEndpoint: deps.config.webhookEndpointConcurrency,
        windows: windows.widened(),
        leaseMs,
      })
      for (const delivery of claimed) send(delivery, false)
      if (!claimed.length && !windowFull) unclaimedSeen = signals
      // A short claim means the queue (or an endpoint's cap) is the limit, not our room:
      // then claim again as soon as anything frees up, so a trickle is sent at once.
      starved = claimed.length < room
      return claimed.length
    },
    onError: (error) => deps.log.error({ err: error }, 'webhook delivery pass failed'),
  })
  // A committed unclaimed delivery wakes the worker at once; polling stays as the fallback.
  const wake = () => {
    unclaimedSignals++
    poller.kick()
  }
  const wakeListener = deps.database.listen(DELIVERIES_CHANNEL, wake).catch((error) => {
    deps.log.warn({ err: error }, 'webhook wake-ups unavailable; polling only')
    return null
  })
  return {
    name: poller.name,
    kick: poller.kick,
    /** One pass, resolved once its sends (born ones too) are recorded, with wake-ups armed. */
    async runOnce() {
      await wakeListener
      const found = await poller.runOnce()
      await Promise.all([...inFlight])
      return found
    },
    async stop() {
      // Deliveries born to it and committed from now on, or still held for their endpoint's
      // window, keep their lease until it runs out; a poll claims them then.
      detachBirths()
      stopped = true
      await (await wakeListener)?.close()
      await poller.stop()
      if (gapTimer) clearTimeout(gapTimer)
      await Promise.all(inFlight)
      sender.close()
    },
  }
}

async function deliverOne(
  deps: Deps,
  {
    sender,
    record,
    open,
    windows,
  }: {
    sender: WebhookSender
    record: Recorder
    open: (s: string) => string
    windows: EndpointWindows
  },
  delivery: ClaimedDelivery,
): Promise<void> {
  if (!delivery.is_active || delivery.deleted_at) return recordEndpointGone(deps, delivery)
  const now = deps.clock.now()
  const body = JSON.stringify({
    id: delivery.event_id,
    event: delivery.type,
    created_at: delivery.event_created_at.toISOString(),
    data: delivery.data,
  })
  const headers = signWebhook({
    secrets: liveSecrets(deps, delivery, now, open),
    id: delivery.event_id,
    timestampSeconds: Math.floor(now.getTime() / 1000),
    body,
  })
  const result = await sender.send(delivery.url, body, headers)
  windows.record(delivery.endpoint_id, result)
  await record({ delivery, result, at: deps.clock.now() })
}
