// Webhook delivery as Asaas documents it: a POST of `{ id, event, dateCreated, payment |
// transfer }` with the `asaas-access-token` header; only HTTP 200 counts; events go one after
// another, the failed one is retried (every 30 s in production) and 15 consecutive failures
// pause the queue until it is resumed, when the pending events go out in order.
import type { AsaasEvent } from './book.ts'

export interface WebhookOptions {
  /** Where events are posted; without it they are only recorded. */
  url?: string
  /** Sent as `asaas-access-token` when set. */
  authToken?: string
  /** Wait before retrying a failed delivery (Asaas: 30 s; tests use a few milliseconds). */
  retryDelayMs?: number
  pauseAfterFailures?: number
  timeoutMs?: number
}

export interface DeliveryAttempt {
  eventId: string
  event: string
  /** The receiver's HTTP status; null when the request failed or was dropped. */
  status: number | null
  error: string | null
  /** Not sent at all (`dropNext`): the receiver never saw it, the fake counts a failure. */
  dropped: boolean
  /** Sent by `redeliver`, outside the queue. */
  redelivery: boolean
}

export class WebhookSender {
  readonly events: AsaasEvent[] = []
  readonly attempts: DeliveryAttempt[] = []
  paused = false
  private url: string | undefined
  private authToken: string | undefined
  private readonly retryDelayMs: number
  private readonly pauseAfterFailures: number
  private readonly timeoutMs: number
  private readonly queue: AsaasEvent[] = []
  private running = false
  private closed = false
  private consecutiveFailures = 0
  private dropCount = 0
  private wakeRetry: (() => void) | null = null
  private idleWaiters: (() => void)[] = []
  private readonly abort = new AbortController()

  constructor(options: WebhookOptions = {}) {
    this.url = options.url
    this.authToken = options.authToken
    this.retryDelayMs = options.retryDelayMs ?? 30_000
    this.pauseAfterFailures = options.pauseAfterFailures ?? 15
    this.timeoutMs = options.timeoutMs ?? 10_000
  }

  /** Events not yet delivered (the one in flight included). */
  get pending(): number {
    return this.queue.length
  }

  setTarget(url: string, authToken?: string): void {
    this.url = url
    this.authToken = authToken
    this.pump()
  }

  publish(event: AsaasEvent): void {
    this.events.push(event)
    if (this.url === undefined) return
    this.queue.push(event)
    this.pump()
  }

  /** The next `count` delivery attempts are lost on the way (and retried later). */
  dropNext(count = 1): void {
    this.dropCount += count
  }

  pause(): void {
    this.paused = true
  }

  resume(): void {
    this.paused = false
    this.consecutiveFailures = 0
    this.wakeRetry?.()
    this.pump()
  }

  /** Posts one recorded event `times` times at once, as a duplicated notification would. */
  redeliver(eventId: string, times = 2): Promise<(number | null)[]> {
    const event = this.events.find((e) => e.id === eventId)
    if (!event) throw new Error(`no event ${eventId}`)
    return Promise.all(Array.from({ length: times }, () => this.send(event, true)))
  }

  /** Resolves once nothing is in flight or waiting to be retried (queue empty or paused). */
  whenIdle(): Promise<void> {
    if (!this.running) return Promise.resolve()
    return new Promise((resolve) => this.idleWaiters.push(resolve))
  }

  close(): void {
    this.closed = true
    this.abort.abort()
    this.wakeRetry?.()
  }

  private pump(): void {
    if (this.running || this.paused || this.closed || this.queue.length === 0) return
    this.running = true
    void this.drain()
  }

  private async drain(): Promise<void> {
    try {
      while (!this.paused && !this.closed && this.queue.length > 0) {
        if (await this.deliver(this.queue[0]!)) {
          this.queue.shift()
          this.consecutiveFailures = 0
          continue
        }
        if (++this.consecutiveFailures >= this.pauseAfterFailures) this.paused = true
        else await this.waitBeforeRetry()
      }
    } finally {
      this.running = false
      for (const resolve of this.idleWaiters.splice(0)) resolve()
    }
  }

  /** Waits `retryDelayMs`, or less when resumed or closed. */
  private waitBeforeRetry(): Promise<void> {
    return new Promise((resolve) => {
      const wake = () => {
        clearTimeout(timer)
        this.wakeRetry = null
        resolve()
      }
      const timer = setTimeout(wake, this.retryDelayMs)
      this.wakeRetry = wake
    })
  }

  private async deliver(event: AsaasEvent): Promise<boolean> {
    if (this.dropCount > 0) {
      this.dropCount--
      this.attempts.push({
        eventId: event.id,
        event: event.event,
        status: null,
        error: 'dropped',
        dropped: true,
        redelivery: false,
      })
      return false
    }
    return (await this.send(event, false)) === 200
  }

  private async send(event: AsaasEvent, redelivery: boolean): Promise<number | null> {
    const attempt = { eventId: event.id, event: event.event, dropped: false, redelivery }
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      'user-agent': 'Asaas-Fake-Webhook/1.0',
    }
    if (this.authToken !== undefined) headers['asaas-access-token'] = this.authToken
    try {
      const response = await fetch(this.url!, {
        method: 'POST',
        headers,
        body: JSON.stringify(event),
        signal: AbortSignal.any([this.abort.signal, AbortSignal.timeout(this.timeoutMs)]),
      })
      await response.arrayBuffer()
      this.attempts.push({ ...attempt, status: response.status, error: null })
      return response.status
    } catch (error) {
      this.attempts.push({ ...attempt, status: null, error: (error as Error).message })
      return null
    }
  }
}
