// The delivery worker. It leases due deliveries fairly across endpoints (a few per endpoint,
// see repo.claimDue), sends each signed without waiting for the others, so a slow endpoint only
// ever holds its own slots, and records every attempt. Retries follow the configured schedule
// with jitter (Retry-After on 429/503 when longer, see retry.ts) up to the delivery's max_attempts (5, one
// more per manual retry); 410 or 24 h of failures disables the endpoint.
import { isIP } from 'node:net'
import type { Deps } from '../../deps.ts'
import { withTx } from '../../kit/db.ts'
import { uuidv7 } from '../../kit/ids.ts'
import { startPoller } from '../../kit/jobs.ts'
import type { WorkerFactory } from '../../workers.ts'
import { DELIVERIES_CHANNEL, webhooksRepo as repo } from './repo.ts'
import { retryDelayMs } from './retry.ts'
import { createWebhookSender, type SendResult, type WebhookSender } from './sender.ts'
import { disableEndpoint, liveSecrets } from './service.ts'
import { signWebhook } from './signature.ts'
import { guardedLookup, isAllowedAddress } from './url-guard.ts'

/** Sends in flight at once in one worker process. */
const MAX_IN_FLIGHT = 64
/** An endpoint failing without a single success for this long is disabled. */
const DISABLE_AFTER_MS = 24 * 3_600_000
/** Successes written together: at most this many, after at most this long. */
const SUCCESS_BATCH = 64
const SUCCESS_FLUSH_MS = 5
/** Statuses whose Retry-After we honour. */
const RETRY_AFTER_STATUSES = new Set([429, 503])

type Delivery = Awaited<ReturnType<typeof repo.loadForDelivery>>[number]
type Recorder = ReturnType<typeof createRecorder>

export const startWebhookWorker: WorkerFactory = (deps) => {
  const sender = createWebhookSender({
    timeoutMs: deps.config.webhookTimeoutMs,
    lookup: guardedLookup(deps.config.allowHttpWebhooks),
  })
  const record = createRecorder(deps)
  const inFlight = new Set<Promise<void>>()
  const poller = startPoller({
    name: 'webhooks.deliver',
    intervalMs: deps.config.workerPollMs,
    pass: async () => {
      const room = MAX_IN_FLIGHT - inFlight.size
      if (room <= 0) return 0
      const ids = await repo.claimDue(deps.db, {
        now: deps.clock.now(),
        limit: room,
        perEndpoint: deps.config.webhookEndpointConcurrency,
        leaseMs: deps.config.webhookTimeoutMs + 5_000,
      })
      for (const delivery of await repo.loadForDelivery(deps.db, ids)) {
        const sending: Promise<void> = deliverOne(deps, sender, record, delivery)
          .catch((error) => deps.log.error({ err: error }, 'webhook delivery failed'))
          .finally(() => {
            inFlight.delete(sending)
            poller.kick()
          })
        inFlight.add(sending)
      }
      return ids.length
    },
    onError: (error) => deps.log.error({ err: error }, 'webhook delivery pass failed'),
  })
  // A committed delivery wakes the worker at once; polling stays as the fallback.
  const unlisten = deps.database.listen(DELIVERIES_CHANNEL, poller.kick).catch((error) => {
    deps.log.warn({ err: error }, 'webhook wake-ups unavailable; polling only')
    return null
  })
  return {
    kick: poller.kick,
    async stop() {
      await (await unlisten)?.()
      await poller.stop()
      await Promise.all(inFlight)
      sender.close()
    },
  }
}

async function deliverOne(
  deps: Deps,
  sender: WebhookSender,
  record: Recorder,
  delivery: Delivery,
): Promise<void> {
  if (!delivery.is_active || delivery.deleted_at) {
    await repo.finishDelivery(deps.db, delivery.id, {
      status: 'failed',
      last_status_code: null,
      last_error: 'endpoint disabled or deleted',
    })
    return
  }
  const now = deps.clock.now()
  const body = JSON.stringify({
    id: delivery.event_id,
    event: delivery.type,
    created_at: delivery.event_created_at.toISOString(),
    data: delivery.data,
  })
  const headers = signWebhook({
    secrets: liveSecrets(deps, delivery, now),
    id: delivery.event_id,
    timestampSeconds: Math.floor(now.getTime() / 1000),
    body,
  })
  const result =
    literalHostRefused(delivery.url, deps.config.allowHttpWebhooks) ??
    (await sender.send(delivery.url, body, headers))
  await record({ delivery, result, at: deps.clock.now() })
}

/** Connecting to an IP literal skips DNS, so the lookup guard never sees it: check it here. */
function literalHostRefused(url: string, allowLoopback: boolean): SendResult | null {
  const host = new URL(url).hostname.replace(/^\[|\]$/g, '')
  if (!isIP(host) || isAllowedAddress(host, allowLoopback)) return null
  return {
    ok: false,
    statusCode: null,
    durationMs: 0,
    error: `address ${host} is not allowed`,
    responseBody: null,
    retryAfterMs: null,
  }
}

interface Outcome {
  delivery: Delivery
  result: SendResult
  at: Date
}

const attemptRow = ({ delivery, result, at }: Outcome) => ({
  id: uuidv7(at.getTime()),
  delivery_id: delivery.id,
  attempt: delivery.attempts,
  status_code: result.statusCode,
  duration_ms: result.durationMs,
  error: result.error,
  response_body: result.responseBody,
  created_at: at,
})

/**
 * Writes outcomes. Successes, the bulk of the traffic, are gathered for a few milliseconds and
 * written together in one transaction (one multi-row statement per table); each caller's promise
 * settles when its row is written, so its lease is held until then. Failures, rarer and with
 * more to decide, are written one by one.
 */
function createRecorder(deps: Deps) {
  let batch: (Outcome & { settle: (error?: unknown) => void })[] = []
  let timer: NodeJS.Timeout | null = null
  const flush = async () => {
    const taken = batch
    batch = []
    if (timer) clearTimeout(timer)
    timer = null
    try {
      await withTx(deps.db, async (tx) => {
        await repo.insertAttempts(tx, taken.map(attemptRow))
        await repo.markDelivered(
          tx,
          taken.map((o) => ({ id: o.delivery.id, statusCode: o.result.statusCode!, at: o.at })),
        )
        await repo.markHealthy(tx, [...new Set(taken.map((o) => o.delivery.endpoint_id))])
      })
      for (const o of taken) o.settle()
    } catch (error) {
      for (const o of taken) o.settle(error)
    }
  }
  return (outcome: Outcome): Promise<void> => {
    if (!outcome.result.ok) return recordFailure(deps, outcome)
    return new Promise((resolve, reject) => {
      batch.push({ ...outcome, settle: (error) => (error ? reject(error) : resolve()) })
      if (batch.length >= SUCCESS_BATCH) void flush()
      else timer ??= setTimeout(flush, SUCCESS_FLUSH_MS)
    })
  }
}

async function recordFailure(deps: Deps, outcome: Outcome): Promise<void> {
  const { delivery, result, at: now } = outcome
  const attempt = delivery.attempts
  await withTx(deps.db, async (tx) => {
    await repo.insertAttempts(tx, [attemptRow(outcome)])
    const common = { last_status_code: result.statusCode, last_error: result.error }
    const gone = result.statusCode === 410
    if (gone || attempt >= delivery.max_attempts) {
      await repo.finishDelivery(tx, delivery.id, { ...common, status: 'failed' })
    } else {
      const retryAfter = RETRY_AFTER_STATUSES.has(result.statusCode ?? 0)
        ? result.retryAfterMs
        : null
      const delay = retryDelayMs(attempt, deps.config.webhookRetryScheduleMs, retryAfter)
      await repo.finishDelivery(tx, delivery.id, {
        ...common,
        status: 'pending',
        next_attempt_at: new Date(now.getTime() + delay),
      })
    }
    const streak = await repo.markFailing(tx, delivery.endpoint_id, now)
    if (gone) {
      await disableEndpoint(tx, deps, delivery.endpoint_id, 'gone')
    } else if (
      streak?.failing_since &&
      now.getTime() - streak.failing_since.getTime() >= DISABLE_AFTER_MS
    ) {
      await disableEndpoint(tx, deps, delivery.endpoint_id, 'failing')
    }
  })
}
