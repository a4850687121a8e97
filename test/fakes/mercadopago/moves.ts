// The moves a payment can make after creation, from the API (cancel, refund) or the fake's
// controls (the buyer pays, a card under review is decided, a PIX runs out, a chargeback).
import { toCents } from '../../../src/kit/money.ts'
import { badRequest } from './http.ts'
import type { Payment, Refund } from './payments.ts'

/** Thrown when a move does not fit the payment's state. */
const notNow = () =>
  badRequest(
    3005,
    'Not valid action, the resource is in a state that does not allow this operation',
  )

function move(p: Payment, now: Date, status: string, detail: string) {
  p.status = status
  p.statusDetail = detail
  p.updatedAt = now
  if (status === 'approved' && !p.approvedAt) p.approvedAt = now
}

/** The buyer paid the PIX or boleto, or a card under review was approved. */
export function approve(p: Payment, now: Date) {
  const waiting = p.method === 'card' ? p.status === 'in_process' : p.status === 'pending'
  if (!waiting) throw notNow()
  move(p, now, 'approved', 'accredited')
}

export function reject(p: Payment, now: Date, detail = 'cc_rejected_other_reason') {
  if (p.method !== 'card' || p.status !== 'in_process') throw notNow()
  move(p, now, 'rejected', detail)
}

export function expire(p: Payment, now: Date) {
  if (p.status !== 'pending') throw notNow()
  move(p, now, 'cancelled', 'expired')
}

/** `PUT /v1/payments/{id}` with `{"status":"cancelled"}`: only before the money moved. */
export function cancel(p: Payment, now: Date) {
  if (!['pending', 'in_process', 'authorized'].includes(p.status)) throw notNow()
  move(p, now, 'cancelled', 'by_collector')
}

export function chargeback(p: Payment, now: Date) {
  if (p.status !== 'approved') throw notNow()
  move(p, now, 'charged_back', 'settled')
}

/** A full refund (`amount` absent) or a partial one, up to what is left. */
export function refund(p: Payment, amount: unknown, id: number, now: Date): Refund {
  if (p.status !== 'approved') throw notNow()
  const left = p.amountCents - p.refundedCents
  const cents = amount === undefined || amount === null ? left : refundCents(amount)
  if (cents > left)
    throw badRequest('invalid_refund_amount', 'amount exceeds what is left to refund')
  const r = { id, amountCents: cents, createdAt: now }
  p.refunds.push(r)
  p.refundedCents += cents
  if (p.refundedCents === p.amountCents) move(p, now, 'refunded', 'refunded')
  else move(p, now, 'approved', 'partially_refunded')
  return r
}

function refundCents(amount: unknown): number {
  try {
    const cents = typeof amount === 'number' ? toCents(amount) : 0
    if (cents > 0) return cents
  } catch {}
  throw badRequest('invalid_refund_amount', 'amount must be a positive number with two decimals')
}
