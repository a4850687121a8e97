// Mercado Pago's payment statuses [OAS enum] as our charge states and callback actions, once.
import { describe, expect, it } from 'vitest'
import {
  callbackActionOf,
  chargeStatusOf,
  declineReasonOf,
} from '../../../src/modules/payments/gateways/mercadopago/statuses.ts'

describe('Mercado Pago statuses', () => {
  it('maps every documented status, reading expired from the status detail', () => {
    const cases: Array<[string, string | null, string, string]> = [
      ['pending', 'pending_waiting_transfer', 'pending', 'ignored'],
      ['in_process', 'pending_contingency', 'pending', 'ignored'],
      ['authorized', null, 'pending', 'ignored'],
      ['approved', 'accredited', 'paid', 'paid'],
      ['approved', 'partially_refunded', 'paid', 'paid'],
      ['in_mediation', null, 'paid', 'paid'],
      ['rejected', 'cc_rejected_other_reason', 'failed', 'failed'],
      ['cancelled', 'expired', 'expired', 'expired'],
      ['cancelled', 'by_collector', 'canceled', 'expired'],
      ['refunded', 'refunded', 'refunded', 'refunded'],
      ['charged_back', 'settled', 'chargeback', 'chargeback'],
    ]
    for (const [status, detail, charge, action] of cases) {
      const mapped = chargeStatusOf({ status, status_detail: detail })
      expect([status, detail, mapped, callbackActionOf(mapped)]).toEqual([
        status,
        detail,
        charge,
        action,
      ])
    }
  })

  it('does not guess an unknown status: the answer is unknown', () => {
    expect(() => chargeStatusOf({ status: 'something_new' })).toThrow(/unknown/)
  })

  it('words a decline for the buyer, with a fallback for details it does not know', () => {
    expect(declineReasonOf('cc_rejected_bad_filled_security_code')).toBe(
      'Código de segurança incorreto. Confira e tente de novo.',
    )
    expect(declineReasonOf('cc_rejected_brand_new_reason')).toBe(
      'O pagamento com cartão foi recusado.',
    )
    expect(declineReasonOf(null)).toBe('O pagamento com cartão foi recusado.')
  })
})
