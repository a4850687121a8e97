// The delivery worker. It leases due deliveries fairly across endpoints (up to each endpoint's
// window, which adapts to how fast it answers: concurrency.ts; see repo.claimDue), sends each signed without waiting for the others, so a slow endpoint only
// ever holds its own slots, and records every attempt. Retries follow the configured schedule
// with jitter (Retry-After on 429/503 when longer, see retry.ts) up to the delivery's
// max_attempts (5, one more per manual retry); 410 or 24 h of failures disables the endpoint
// (record.ts).
import type { Deps } from '../../deps.ts'
import { startPoller } from '../../kit/jobs.ts'
import type { WorkerFactory } from '../../workers.ts'
import { createEndpointWindows, type EndpointWindows } from './concurrency.ts'
import { createRecorder, type Recorder, recordEndpointGone } from './record.ts'
import { type ClaimedDelivery, DELIVERIES_CHANNEL, webhooksRepo as repo } from './repo.ts'
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
  const inFlight = new Set<Promise<void>>()
  let starved = true
  let lastClaimAt = 0
  let gapTimer: NodeJS.Timeout | null = null
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
      // Claims and results commit relaxed (kit/db.ts): a database crash can only send again.
      const claimed = await repo.claimDue(deps.database.relaxed, {
        now: deps.clock.now(),
        limit: room,
        perEndpoint: deps.config.webhookEndpointConcurrency,
        windows: windows.widened(),
        leaseMs: deps.config.webhookTimeoutMs + 5_000,
      })
      for (const delivery of claimed) {
        const sending: Promise<void> = deliverOne(deps, { sender, record, open, windows }, delivery)
          .catch((error) => deps.log.error({ err: error }, 'webhook delivery failed'))
          .finally(() => {
            inFlight.delete(sending)
            poller.kick()
          })
        inFlight.add(sending)
      }
      // A short claim means the queue (or an endpoint's cap) is the limit, not our room:
      // then claim again as soon as anything frees up, so a trickle is sent at once.
      starved = claimed.length < room
      return claimed.length
    },
    onError: (error) => deps.log.error({ err: error }, 'webhook delivery pass failed'),
  })
  // A committed delivery wakes the worker at once; polling stays as the fallback.
  const unlisten = deps.database.listen(DELIVERIES_CHANNEL, poller.kick).catch((error) => {
    deps.log.warn({ err: error }, 'webhook wake-ups unavailable; polling only')
    return null
  })
  return {
    name: poller.name,
    kick: poller.kick,
    /** One pass, resolved once its sends are recorded, with wake-ups armed by then. */
    async runOnce() {
      await unlisten
      const found = await poller.runOnce()
      await Promise.all([...inFlight])
      return found
    },
    async stop() {
      await (await unlisten)?.()
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
