// Writes the outcome of each delivery attempt. Every write is fenced by the claim: a worker whose
// lease expired while it was sending (another worker has claimed the delivery again since) still
// logs the attempt it made, but settles nothing; the newer claim decides.
import type { Deps } from '../../deps.ts'
import { withTx } from '../../kit/db.ts'
import { uuidv7 } from '../../kit/ids.ts'
import { type ClaimedDelivery, webhooksRepo as repo } from './repo.ts'
import { retryDelayMs } from './retry.ts'
import type { SendResult } from './sender.ts'
import { disableEndpoint } from './service.ts'

/** An endpoint failing without a single success for this long is disabled. */
const DISABLE_AFTER_MS = 24 * 3_600_000
/**
 * Successes written together: at most this many; a lone one waits this long for company (born
 * deliveries end one at a time, a sale's each; the receiver has its delivery already).
 */
const SUCCESS_BATCH = 256
const SUCCESS_FLUSH_MS = 25
/** Statuses whose Retry-After we honour. */
const RETRY_AFTER_STATUSES = new Set([429, 503])

export interface Outcome {
  delivery: ClaimedDelivery
  result: SendResult
  at: Date
}

export type Recorder = (outcome: Outcome) => Promise<void>

/**
 * Successes, the bulk of the traffic, are written together in one statement, group-commit
 * style: one write at a time; what finishes while it runs waits for the next, which starts as
 * soon as it ends. A lone success waits a little for company. Batches thus grow with
 * the load and the write rate stays bounded. Each caller's promise settles when its row is
 * written, so its lease is held until then. Failures, rarer and with more to decide, are
 * written one by one.
 */
export function createRecorder(deps: Deps): Recorder {
  const batch: (Outcome & { settle: (error?: unknown) => void })[] = []
  let timer: NodeJS.Timeout | null = null
  let writing = false
  const flush = async () => {
    if (timer) clearTimeout(timer)
    timer = null
    if (writing || !batch.length) return
    writing = true
    const taken = batch.splice(0, SUCCESS_BATCH)
    try {
      const settled = await repo.recordSuccesses(
        deps.database.relaxed,
        taken.map(({ delivery, result, at }) => ({
          attemptId: uuidv7(at.getTime()),
          deliveryId: delivery.id,
          endpointId: delivery.endpoint_id,
          attempt: delivery.attempts,
          statusCode: result.statusCode!,
          durationMs: result.durationMs,
          responseBody: result.responseBody,
          at,
        })),
      )
      const stale = taken.filter((o) => !settled.has(o.delivery.id))
      if (stale.length) {
        deps.log.warn({ deliveries: stale.map((o) => o.delivery.id) }, 'stale webhook claims')
      }
      for (const o of taken) o.settle()
    } catch (error) {
      for (const o of taken) o.settle(error)
    } finally {
      writing = false
      if (batch.length) void flush()
    }
  }
  return (outcome) => {
    if (!outcome.result.ok) return recordFailure(deps, outcome)
    return new Promise((resolve, reject) => {
      batch.push({ ...outcome, settle: (error) => (error ? reject(error) : resolve()) })
      if (writing) return
      if (batch.length >= SUCCESS_BATCH) void flush()
      else timer ??= setTimeout(flush, SUCCESS_FLUSH_MS)
    })
  }
}

/**
 * A failed attempt: logged; the delivery is scheduled again, or failed for good after its last
 * attempt or a 410; the endpoint's failing streak grows, and a 410 or 24 h of failures turns
 * it off. A stale claim only logs.
 */
async function recordFailure(deps: Deps, outcome: Outcome): Promise<void> {
  const { delivery, result, at: now } = outcome
  const attempt = delivery.attempts
  await withTx(deps.database.relaxed, async (tx) => {
    await repo.insertAttempts(tx, [
      {
        id: uuidv7(now.getTime()),
        delivery_id: delivery.id,
        attempt,
        status_code: result.statusCode,
        duration_ms: result.durationMs,
        error: result.error,
        response_body: result.responseBody,
        created_at: now,
      },
    ])
    const common = { last_status_code: result.statusCode, last_error: result.error }
    const gone = result.statusCode === 410
    const claim = { id: delivery.id, attempt }
    let current: boolean
    if (gone || attempt >= delivery.max_attempts) {
      current = await repo.finishDelivery(tx, claim, { ...common, status: 'failed' })
    } else {
      const retryAfter = RETRY_AFTER_STATUSES.has(result.statusCode ?? 0)
        ? result.retryAfterMs
        : null
      const delay = retryDelayMs(attempt, deps.config.webhookRetryScheduleMs, retryAfter)
      current = await repo.finishDelivery(tx, claim, {
        ...common,
        status: 'pending',
        next_attempt_at: new Date(now.getTime() + delay),
      })
    }
    if (!current) return
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

/** A delivery whose endpoint was turned off or deleted after it was queued fails unsent. */
export async function recordEndpointGone(deps: Deps, delivery: ClaimedDelivery): Promise<void> {
  await repo.finishDelivery(
    deps.database.relaxed,
    { id: delivery.id, attempt: delivery.attempts },
    { status: 'failed', last_status_code: null, last_error: 'endpoint disabled or deleted' },
  )
}
