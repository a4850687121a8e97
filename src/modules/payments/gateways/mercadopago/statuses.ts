// Mercado Pago's payment statuses and status details, read once here: what each means for our
// charge, for a callback, and for a buyer whose card was declined.
import type { CallbackAction, GatewayChargeStatus } from '../../gateway.ts'

/** `status` of a payment [OAS enum] → our charge status. */
const STATUSES: Record<string, GatewayChargeStatus> = {
  pending: 'pending',
  // A card under review (`pending_contingency`, `pending_review_manual`): decided later.
  in_process: 'pending',
  // Authorized, not captured: Vitrine always captures, so this is a moment, not an end.
  authorized: 'pending',
  approved: 'paid',
  rejected: 'failed',
  // `cancelled` + `status_detail: expired` is an unpaid PIX or boleto that ran out (see below).
  cancelled: 'canceled',
  refunded: 'refunded',
  charged_back: 'chargeback',
  // The buyer opened a dispute: the money is held, not yet taken back. The order stays paid
  // until Mercado Pago decides (`charged_back`, or back to `approved`).
  in_mediation: 'paid',
}

export function chargeStatusOf(payment: { status: string; status_detail?: string | null }) {
  if (payment.status === 'cancelled' && payment.status_detail === 'expired') return 'expired'
  const status = STATUSES[payment.status]
  // An unknown status is not guessed at: the caller treats the answer as unknown.
  if (!status) throw new Error(`unknown Mercado Pago payment status "${payment.status}"`)
  return status
}

/** What a notification means, from the payment's state read back (never the notification's). */
const ACTIONS: Record<GatewayChargeStatus, CallbackAction> = {
  pending: 'ignored',
  paid: 'paid',
  failed: 'failed',
  expired: 'expired',
  // Only Vitrine cancels its charges (when its own expiry passes, or its side failed): to the
  // order that is an expiry, and a cancel made in Mercado Pago's panel must close it as well.
  canceled: 'expired',
  refunded: 'refunded',
  chargeback: 'chargeback',
}

export const callbackActionOf = (status: GatewayChargeStatus): CallbackAction => ACTIONS[status]

/** `status_detail` of a rejected card, in words a buyer can act on (pt-BR). */
const DECLINES: Record<string, string> = {
  cc_rejected_bad_filled_card_number: 'Número do cartão incorreto. Confira e tente de novo.',
  cc_rejected_bad_filled_date: 'Data de validade incorreta. Confira e tente de novo.',
  cc_rejected_bad_filled_security_code: 'Código de segurança incorreto. Confira e tente de novo.',
  cc_rejected_bad_filled_other: 'Algum dado do cartão está incorreto. Confira e tente de novo.',
  cc_rejected_call_for_authorize:
    'O banco emissor pede que você autorize este pagamento. Ligue para o banco e tente de novo.',
  cc_rejected_card_disabled:
    'O cartão não está ativo. Ligue para o banco emissor para ativá-lo ou use outro cartão.',
  cc_rejected_duplicated_payment:
    'Você já fez um pagamento com este valor. Se precisa pagar de novo, use outro cartão.',
  cc_rejected_high_risk: 'O pagamento foi recusado pela análise de segurança. Use outro cartão.',
  cc_rejected_insufficient_amount: 'Saldo ou limite insuficiente no cartão.',
  cc_rejected_invalid_installments: 'O cartão não aceita este número de parcelas.',
  cc_rejected_max_attempts:
    'Você atingiu o limite de tentativas com este cartão. Use outro cartão.',
  cc_rejected_blacklist: 'O cartão não pôde ser usado. Use outro cartão.',
  cc_rejected_card_error: 'O cartão não pôde ser processado. Use outro cartão.',
  cc_rejected_other_reason: 'O banco emissor recusou o pagamento. Use outro cartão.',
}

export function declineReasonOf(statusDetail: string | null | undefined): string {
  return (statusDetail && DECLINES[statusDetail]) || 'O pagamento com cartão foi recusado.'
}
