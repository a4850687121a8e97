// A local fake of Mercado Pago's payments API as a real HTTP server, for tests and by hand
// (scripts/fake-mercadopago.ts). What it mimics, and from which source: docs/gateways/mercadopago.md.
//
//   const mp = await startFakeMercadoPago({ retryDelaysMs: [50, 50] })
//   // point the adapter at mp.url with mp.accessToken, mp.publicKey, mp.webhookSecret
//   mp.approve(paymentId); await mp.settled(); expect(mp.deliveries)…
//   await mp.close()
import type { CardOutcome } from './mercadopago/cards.ts'
import * as moves from './mercadopago/moves.ts'
import type { DeliveryMode, Forgery } from './mercadopago/notifier.ts'
import { startServer } from './mercadopago/server.ts'
import {
  closedGate,
  type FakeMercadoPagoOptions,
  moved,
  paymentOf,
  resourceOf,
} from './mercadopago/state.ts'

export type { Delivery } from './mercadopago/notifier.ts'
export type { RecordedRequest } from './mercadopago/state.ts'
export type { CardOutcome, DeliveryMode, FakeMercadoPagoOptions, Forgery }

export type FakeMercadoPago = Awaited<ReturnType<typeof startFakeMercadoPago>>

export async function startFakeMercadoPago(options: FakeMercadoPagoOptions = {}) {
  const { state, close } = await startServer(options)
  const find = (id: number | string) => paymentOf(state, id)
  const now = () => state.now()
  return {
    /** Base URL: stands in for https://api.mercadopago.com; MercadoPago.js is at `${url}/js/v2`. */
    url: state.url,
    accessToken: state.accessToken,
    publicKey: state.publicKey,
    webhookSecret: state.webhookSecret,
    /** Every API request, in order, with what the client got back. */
    requests: state.requests,
    /** Every notification attempt, in order. */
    deliveries: state.notifier.deliveries,

    /** The payment as `GET /v1/payments/{id}` answers it. */
    payment: (id: number | string) => resourceOf(state, find(id)),
    payments: () => [...state.payments.values()].map((p) => resourceOf(state, p)),

    /** The buyer pays a PIX or boleto, or a card under review (`CONT`) is approved. */
    approve: (id: number | string) => moved(state, find(id), (p) => moves.approve(p, now())),
    /** A card under review is declined. */
    reject: (id: number | string, statusDetail?: string) =>
      moved(state, find(id), (p) => moves.reject(p, now(), statusDetail)),
    /** A PIX or boleto runs out unpaid (the fake never expires one by itself). */
    expire: (id: number | string) => moved(state, find(id), (p) => moves.expire(p, now())),
    chargeback: (id: number | string) => moved(state, find(id), (p) => moves.chargeback(p, now())),
    /** Decides a token's outcome regardless of the cardholder name. */
    setCardOutcome: (tokenId: string, outcome: CardOutcome) => {
      state.cardOutcomes.set(tokenId, outcome)
    },

    /** How the following notifications travel: once (default), twice, concurrently, never. */
    setDelivery: (mode: DeliveryMode) => {
      state.notifier.mode = mode
    },
    /** Delivers the payment's latest notification again (same notification id). */
    resend: (id: number | string) => state.notifier.resend(find(id).id),
    /** Sends a notification for the payment that a correct receiver refuses (or a stale one). */
    forge: (id: number | string, how: Forgery) => {
      const p = find(id)
      if (!p.notificationUrl) throw new Error(`payment ${p.id} has no notification_url`)
      state.notifier.forge(p.id, p.notificationUrl, how)
    },
    /** Resolves once every notification, retries included, has been delivered or given up. */
    settled: () => state.notifier.settled(),

    /** The next matching API request takes effect, then its connection is dropped unanswered. */
    loseNextAnswer: (match: { method?: string; path?: string } = {}) => {
      state.faults.push({ kind: 'lose', status: 0, ...match })
    },
    /** The next matching API request fails with `status` and has no effect. */
    failNext: (status = 500, match: { method?: string; path?: string } = {}) => {
      state.faults.push({ kind: 'fail', status, ...match })
    },
    /** API requests wait unanswered from now until `releaseAnswers` (they take effect then). */
    holdAnswers: () => {
      state.gate ??= closedGate()
    },
    releaseAnswers: () => {
      state.gate?.open()
      state.gate = null
    },
    /** API requests waiting behind `holdAnswers` right now. */
    held: () => state.gate?.waiting ?? 0,

    close,
  }
}
