// The delivery worker: claims due deliveries under a lease, POSTs them signed, records every
// attempt, and schedules retries with exponential backoff and jitter (5 attempts, SPEC §10).
import { isIP } from 'node:net'
import type { Deps } from '../../deps.ts'
import { withTx } from '../../kit/db.ts'
import { uuidv7 } from '../../kit/ids.ts'
import { claimDue, startPoller } from '../../kit/jobs.ts'
import type { WorkerFactory } from '../../workers.ts'
import { webhooksRepo as repo } from './repo.ts'
import { createWebhookSender, type SendResult, type WebhookSender } from './sender.ts'
import { openSecret } from './service.ts'
import { signWebhook } from './signature.ts'
import { guardedLookup, isAllowedAddress } from './url-guard.ts'

export const MAX_ATTEMPTS = 5
const BATCH = 50

/** base × 2^(attempt−1) with ±20 % jitter, or the receiver's Retry-After when that is longer. */
export function retryDelayMs(
  attempt: number,
  baseMs: number,
  retryAfterMs: number | null,
  random = Math.random,
) {
  const backoff = baseMs * 2 ** (attempt - 1) * (0.8 + random() * 0.4)
  return Math.round(Math.max(backoff, retryAfterMs ?? 0))
}

type Delivery = Awaited<ReturnType<typeof repo.loadForDelivery>>[number]

export const startWebhookWorker: WorkerFactory = (deps) => {
  const allowLoopback = deps.config.allowHttpWebhooks
  const sender = createWebhookSender({
    timeoutMs: deps.config.webhookTimeoutMs,
    lookup: guardedLookup(allowLoopback),
  })
  const poller = startPoller({
    name: 'webhooks.deliver',
    intervalMs: deps.config.workerPollMs,
    pass: () => deliverDue(deps, sender),
    onError: (error) => deps.log.error({ err: error }, 'webhook delivery pass failed'),
  })
  return {
    kick: poller.kick,
    async stop() {
      await poller.stop()
      sender.close()
    },
  }
}

async function deliverDue(deps: Deps, sender: WebhookSender): Promise<number> {
  const ids = await claimDue(deps.db, {
    table: 'webhook_deliveries',
    now: deps.clock.now(),
    limit: BATCH,
    leaseMs: deps.config.webhookTimeoutMs + 5_000,
  })
  if (!ids.length) return 0
  const deliveries = await repo.loadForDelivery(deps.db, ids)
  await Promise.all(deliveries.map((delivery) => deliverOne(deps, sender, delivery)))
  return ids.length
}

async function deliverOne(deps: Deps, sender: WebhookSender, delivery: Delivery): Promise<void> {
  if (!delivery.is_active || delivery.deleted_at) {
    await repo.finishDelivery(deps.db, delivery.id, {
      status: 'failed',
      last_status_code: null,
      last_error: 'endpoint disabled or deleted',
    })
    return
  }
  const body = JSON.stringify({
    id: delivery.event_id,
    event: delivery.type,
    created_at: delivery.event_created_at.toISOString(),
    data: delivery.data,
  })
  const headers = signWebhook({
    secrets: [openSecret(deps, delivery.secret_sealed)],
    id: delivery.event_id,
    timestampSeconds: Math.floor(deps.clock.now().getTime() / 1000),
    body,
  })
  const result =
    literalHostRefused(delivery.url, deps.config.allowHttpWebhooks) ??
    (await sender.send(delivery.url, body, headers))
  await record(deps, delivery, result)
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

async function record(deps: Deps, delivery: Delivery, result: SendResult): Promise<void> {
  const now = deps.clock.now()
  const attempt = delivery.attempts
  await withTx(deps.db, async (tx) => {
    await repo.insertAttempt(tx, {
      id: uuidv7(now.getTime()),
      delivery_id: delivery.id,
      attempt,
      status_code: result.statusCode,
      duration_ms: result.durationMs,
      error: result.error,
      response_body: result.responseBody,
      created_at: now,
    })
    const common = { last_status_code: result.statusCode, last_error: result.error }
    if (result.ok) {
      await repo.finishDelivery(tx, delivery.id, {
        ...common,
        status: 'delivered',
        delivered_at: now,
      })
    } else if (attempt >= MAX_ATTEMPTS) {
      await repo.finishDelivery(tx, delivery.id, { ...common, status: 'failed' })
    } else {
      const delay = retryDelayMs(attempt, deps.config.webhookRetryBaseMs, result.retryAfterMs)
      await repo.finishDelivery(tx, delivery.id, {
        ...common,
        status: 'pending',
        next_attempt_at: new Date(now.getTime() + delay),
      })
    }
  })
}
