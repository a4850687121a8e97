// Notifications as Mercado Pago sends them: a Webhook POSTed to the payment's notification_url
// with `?data.id=…&type=payment`, signed in `x-signature`, retried until the receiver answers
// 200 or 201; plus the legacy IPN copy (`?topic=payment&id=…`, not verifiable) unless the URL
// carries `source_news=webhooks`.
import { createHmac, randomBytes, randomUUID } from 'node:crypto'
import { mpDate } from './http.ts'

/** How the next notifications travel: normally, duplicated, raced, or lost. */
export type DeliveryMode = 'once' | 'twice' | 'concurrently' | 'never'

/** Ways to forge (or replay) a notification for a payment. */
export type Forgery = 'wrong-secret' | 'unsigned' | 'tampered-id' | 'stale'

export interface Delivery {
  kind: 'webhook' | 'ipn' | 'forged'
  /** The notification's `id`: repeated deliveries of one notification share it. */
  notificationId: number
  paymentId: number
  action: string
  attempt: number
  url: string
  headers: Record<string, string>
  body: string
  /** The receiver's status; null when nothing came back (timeout, refused, or dropped). */
  status: number | null
  error: string | null
  /** Mercado Pago counts only 200 and 201 as received (Webhooks page). */
  ok: boolean
}

export interface NotifierOptions {
  secret: string
  /** Mercado Pago waits 22 s for the answer. */
  timeoutMs: number
  /** Waits between attempts: 15 min three times, then longer (Webhooks page). */
  retryDelaysMs: number[]
  /**
   * `ts` in seconds, as in the Webhooks page's example and as the published SDK (3.6.1) reads
   * it; the page's prose and the SDK's GitHub main say milliseconds, so 'ms' is offered too.
   */
  timestampUnit: 'ms' | 's'
  now: () => Date
}

interface Event {
  notificationId: number
  paymentId: number
  action: string
  url: string
  date: Date
}

const COLLECTOR_ID = 123456789

/** HMAC-SHA256 (hex) over the manifest the official SDK builds. */
export function signature(secret: string, dataId: string, requestId: string, ts: string) {
  const manifest = `id:${dataId};request-id:${requestId};ts:${ts};`
  return createHmac('sha256', secret).update(manifest).digest('hex')
}

export class Notifier {
  mode: DeliveryMode = 'once'
  readonly deliveries: Delivery[] = []
  private readonly running = new Set<Promise<void>>()
  private readonly timers = new Map<NodeJS.Timeout, () => void>()
  private readonly aborter = new AbortController()
  private readonly lastEvent = new Map<number, Event>()
  private nextId = 1

  constructor(private readonly opts: NotifierOptions) {}

  /** Sends `payment.created` / `payment.updated` for a payment that has a notification_url. */
  notify(paymentId: number, url: string | null, action: string) {
    if (!url) return
    const event = { notificationId: this.nextId++, paymentId, action, url, date: this.opts.now() }
    this.lastEvent.set(paymentId, event)
    this.dispatch(event)
  }

  /** Delivers the payment's latest notification again, as a repeat of the same one. */
  resend(paymentId: number): boolean {
    const event = this.lastEvent.get(paymentId)
    if (event) this.track(this.webhookChain(event))
    return Boolean(event)
  }

  /** Sends one notification for the payment that a correct receiver must refuse. */
  forge(paymentId: number, url: string, how: Forgery) {
    const action = 'payment.updated'
    const event = { notificationId: this.nextId++, paymentId, action, url, date: this.opts.now() }
    const requestId = randomUUID()
    const dataId = String(paymentId)
    const ts = this.timestamp(how === 'stale' ? -3_600_000 : 0)
    const secret = how === 'wrong-secret' ? randomBytes(16).toString('hex') : this.opts.secret
    const signedId = how === 'tampered-id' ? String(paymentId + 1) : dataId
    const headers: Record<string, string> = { 'x-request-id': requestId }
    if (how !== 'unsigned') {
      headers['x-signature'] = `ts=${ts},v1=${signature(secret, signedId, requestId, ts)}`
    }
    this.track(this.attempt('forged', event, webhookUrl(event), headers, webhookBody(event), 1))
  }

  /** Resolves once every delivery, retry included, has finished. */
  async settled() {
    while (this.running.size > 0) await Promise.all(this.running)
  }

  close() {
    this.aborter.abort()
    for (const [timer, wake] of this.timers) {
      clearTimeout(timer)
      wake()
    }
    this.timers.clear()
  }

  private dispatch(event: Event) {
    const mode = this.mode
    if (mode === 'never') {
      this.record('webhook', event, webhookUrl(event), {}, webhookBody(event), 0, null, 'dropped')
    } else if (mode === 'twice') {
      this.track(this.webhookChain(event).then(() => this.webhookChain(event)))
    } else {
      this.track(this.webhookChain(event))
      if (mode === 'concurrently') this.track(this.webhookChain(event))
    }
    if (mode !== 'never' && !new URL(event.url).searchParams.has('source_news', 'webhooks')) {
      this.track(this.retrying((attempt) => this.ipnAttempt(event, attempt)))
    }
  }

  private webhookChain(event: Event) {
    return this.retrying((attempt) => {
      const requestId = randomUUID()
      const ts = this.timestamp(0)
      const v1 = signature(this.opts.secret, String(event.paymentId), requestId, ts)
      const headers = { 'x-request-id': requestId, 'x-signature': `ts=${ts},v1=${v1}` }
      return this.attempt('webhook', event, webhookUrl(event), headers, webhookBody(event), attempt)
    })
  }

  private ipnAttempt(event: Event, attempt: number) {
    const url = new URL(event.url)
    url.searchParams.set('topic', 'payment')
    url.searchParams.set('id', String(event.paymentId))
    const body = JSON.stringify({ resource: String(event.paymentId), topic: 'payment' })
    // IPN carries an x-signature that cannot be verified (IPN page).
    const headers = {
      'x-signature': `ts=${this.timestamp(0)},v1=${randomBytes(32).toString('hex')}`,
    }
    return this.attempt('ipn', event, url.toString(), headers, body, attempt)
  }

  private async retrying(send: (attempt: number) => Promise<boolean>) {
    for (let attempt = 1; ; attempt++) {
      const ok = await send(attempt)
      const delay = this.opts.retryDelaysMs[attempt - 1]
      if (ok || delay === undefined || this.aborter.signal.aborted) return
      await this.sleep(delay)
      if (this.aborter.signal.aborted) return
    }
  }

  private async attempt(
    kind: Delivery['kind'],
    event: Event,
    url: string,
    extraHeaders: Record<string, string>,
    body: string,
    attempt: number,
  ): Promise<boolean> {
    const headers = { 'content-type': 'application/json', ...extraHeaders }
    try {
      const res = await fetch(url, {
        method: 'POST',
        headers,
        body,
        signal: AbortSignal.any([this.aborter.signal, AbortSignal.timeout(this.opts.timeoutMs)]),
      })
      await res.arrayBuffer()
      return this.record(kind, event, url, headers, body, attempt, res.status, null)
    } catch (err) {
      return this.record(kind, event, url, headers, body, attempt, null, String(err))
    }
  }

  private record(
    kind: Delivery['kind'],
    event: Event,
    url: string,
    headers: Record<string, string>,
    body: string,
    attempt: number,
    status: number | null,
    error: string | null,
  ): boolean {
    const ok = status === 200 || status === 201
    const { notificationId, paymentId, action } = event
    this.deliveries.push({
      kind,
      notificationId,
      paymentId,
      action,
      attempt,
      url,
      headers,
      body,
      status,
      error,
      ok,
    })
    return ok
  }

  private timestamp(shiftMs: number) {
    const ms = this.opts.now().getTime() + shiftMs
    return String(this.opts.timestampUnit === 'ms' ? ms : Math.floor(ms / 1000))
  }

  private sleep(ms: number) {
    return new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        this.timers.delete(timer)
        resolve()
      }, ms)
      this.timers.set(timer, resolve)
    })
  }

  private track(work: Promise<unknown>) {
    const done: Promise<void> = work.then(
      () => {
        this.running.delete(done)
      },
      () => {
        this.running.delete(done)
      },
    )
    this.running.add(done)
  }
}

function webhookUrl(event: Event): string {
  const url = new URL(event.url)
  url.searchParams.set('data.id', String(event.paymentId))
  url.searchParams.set('type', 'payment')
  return url.toString()
}

function webhookBody(event: Event): string {
  return JSON.stringify({
    id: event.notificationId,
    live_mode: false,
    type: 'payment',
    date_created: mpDate(event.date),
    user_id: COLLECTOR_ID,
    api_version: 'v1',
    action: event.action,
    data: { id: String(event.paymentId) },
  })
}
