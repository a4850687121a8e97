// The Asaas status table (statuses.ts), status by status: every status Asaas documents
// (docs/gateways/asaas.md, "Statuses") for a card and for a PIX or boleto charge, and the
// transfer statuses. No database: it is a table.
import { describe, expect, it } from 'vitest'
import {
  callbackActionOf,
  chargeStatusOf,
  transferStateOf,
} from '../../../src/modules/payments/gateways/asaas/statuses.ts'

const TABLE: [status: string, card: string, pixOrBoleto: string][] = [
  ['PENDING', 'pending', 'pending'],
  ['AWAITING_RISK_ANALYSIS', 'pending', 'pending'],
  ['OVERDUE', 'pending', 'pending'],
  ['CONFIRMED', 'paid', 'pending'],
  ['RECEIVED', 'paid', 'paid'],
  ['RECEIVED_IN_CASH', 'paid', 'paid'],
  ['DUNNING_REQUESTED', 'pending', 'pending'],
  ['DUNNING_RECEIVED', 'paid', 'paid'],
  ['REFUNDED', 'refunded', 'refunded'],
  ['REFUND_REQUESTED', 'refunded', 'refunded'],
  ['REFUND_IN_PROGRESS', 'refunded', 'refunded'],
  ['CHARGEBACK_REQUESTED', 'chargeback', 'chargeback'],
  ['CHARGEBACK_DISPUTE', 'chargeback', 'chargeback'],
  ['AWAITING_CHARGEBACK_REVERSAL', 'chargeback', 'chargeback'],
]

describe('Asaas payment statuses', () => {
  it.each(TABLE)('%s: card %s, PIX and boleto %s', (status, card, other) => {
    expect(chargeStatusOf({ status, billingType: 'CREDIT_CARD' })).toEqual({
      status: card,
      known: true,
    })
    for (const billingType of ['PIX', 'BOLETO'])
      expect(chargeStatusOf({ status, billingType })).toEqual({ status: other, known: true })
  })

  it('a removed charge is canceled whatever its status; an unknown word is pending', () => {
    expect(chargeStatusOf({ status: 'PENDING', billingType: 'PIX', deleted: true })).toEqual({
      status: 'canceled',
      known: true,
    })
    expect(chargeStatusOf({ status: 'SOMETHING_NEW', billingType: 'PIX' })).toEqual({
      status: 'pending',
      known: false,
    })
  })

  it('callback actions: pending is ignored, a removed charge expires the order', () => {
    expect(callbackActionOf('pending')).toBe('ignored')
    expect(callbackActionOf('canceled')).toBe('expired')
    for (const same of ['paid', 'failed', 'refunded', 'chargeback', 'expired'] as const)
      expect(callbackActionOf(same)).toBe(same)
  })
})

describe('Asaas transfer statuses', () => {
  it.each([
    ['PENDING', 'pending'],
    ['BANK_PROCESSING', 'pending'],
    ['DONE', 'completed'],
    ['FAILED', 'failed'],
    ['CANCELLED', 'failed'],
  ])('%s → %s', (status, state) => {
    expect(transferStateOf(status)).toEqual({ state, known: true })
  })

  it('an unknown word is pending (looked at again later)', () => {
    expect(transferStateOf('BLOCKED')).toEqual({ state: 'pending', known: false })
  })
})
