// The fake's books: payments, card tokens, idempotency keys, requests seen, faults to inject.
import { randomBytes } from 'node:crypto'
import type { IncomingMessage } from 'node:http'
import type { CardOutcome, CardToken } from './cards.ts'
import { notFound } from './http.ts'
import { Notifier } from './notifier.ts'
import type { Payment } from './payments.ts'
import { paymentResource } from './resources.ts'

export interface FakeMercadoPagoOptions {
  accessToken?: string
  publicKey?: string
  webhookSecret?: string
  host?: string
  port?: number
  /** How long a notification waits for the receiver (Mercado Pago: 22 s). */
  notificationTimeoutMs?: number
  /** Waits between delivery attempts; the real schedule is 15 min ×3, then longer. */
  retryDelaysMs?: number[]
  timestampUnit?: 'ms' | 's'
  maxInstallments?: number
  /** The smallest installment (an assumption: R$ 5,00). */
  minInstallmentCents?: number
  now?: () => Date
}

export interface RecordedRequest {
  method: string
  path: string
  headers: IncomingMessage['headers']
  body: string
  /** What the client got back; 'lost' when the fake dropped the connection instead. */
  status: number | 'lost'
}

export interface Fault {
  kind: 'lose' | 'fail'
  status: number
  method?: string | undefined
  path?: string | undefined
}

/** API requests wait behind it until it opens (a gateway too slow to answer for a while). */
export interface Gate {
  opened: Promise<void>
  open: () => void
  waiting: number
}

export function closedGate(): Gate {
  let open = () => {}
  const opened = new Promise<void>((resolve) => {
    open = resolve
  })
  return { opened, open, waiting: 0 }
}

export interface Answer {
  status: number
  body: unknown
}

const REAL_RETRY_DELAYS = [15, 15, 15, 60, 120, 240].map((m) => m * 60_000)

export type FakeState = ReturnType<typeof createState>

export function createState(opts: FakeMercadoPagoOptions) {
  const now = opts.now ?? (() => new Date())
  const webhookSecret = opts.webhookSecret ?? randomBytes(24).toString('hex')
  return {
    url: '',
    accessToken: opts.accessToken ?? 'TEST-fake-access-token',
    publicKey: opts.publicKey ?? 'TEST-fake-public-key',
    webhookSecret,
    now,
    maxInstallments: opts.maxInstallments ?? 12,
    minInstallmentCents: opts.minInstallmentCents ?? 500,
    payments: new Map<number, Payment>(),
    qrImages: new Map<number, string>(),
    tokens: new Map<string, CardToken>(),
    cardOutcomes: new Map<string, CardOutcome>(),
    idempotent: new Map<string, { fingerprint: string; answer: Promise<Answer> }>(),
    requests: [] as RecordedRequest[],
    faults: [] as Fault[],
    gate: null as Gate | null,
    nextId: 1_300_000_000 + Math.floor(Math.random() * 1_000_000) * 100,
    notifier: new Notifier({
      secret: webhookSecret,
      timeoutMs: opts.notificationTimeoutMs ?? 22_000,
      retryDelaysMs: opts.retryDelaysMs ?? REAL_RETRY_DELAYS,
      timestampUnit: opts.timestampUnit ?? 's',
      now,
    }),
  }
}

export function paymentOf(state: FakeState, id: number | string): Payment {
  const payment = state.payments.get(Number(id))
  if (!payment) throw notFound('Payment')
  return payment
}

export function resourceOf(state: FakeState, p: Payment) {
  return paymentResource(p, state.url, state.qrImages.get(p.id) ?? null)
}

/** Applies a move to a payment and notifies its receiver. */
export function moved(state: FakeState, p: Payment, moveFn: (p: Payment) => unknown) {
  moveFn(p)
  state.notifier.notify(p.id, p.notificationUrl, 'payment.updated')
  return resourceOf(state, p)
}
