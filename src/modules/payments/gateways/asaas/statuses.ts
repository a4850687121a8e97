// Asaas' payment and transfer statuses, onto ours: written once, here. Asaas' list and meanings:
// docs/gateways/asaas.md ("Statuses"). A status we do not know reads as pending: nothing
// changes on our side until a known one is read back (and the unknown word is logged).
import type { CallbackAction, GatewayChargeStatus } from '../../gateway.ts'

type BillingType = 'PIX' | 'BOLETO' | 'CREDIT_CARD' | 'UNDEFINED'

/** Per status: what it means for a card charge, and for a PIX or boleto one. */
const PAYMENT_STATUSES: Record<string, { card: GatewayChargeStatus; other: GatewayChargeStatus }> =
  {
    PENDING: { card: 'pending', other: 'pending' },
    // The card was authorized but Asaas' fraud review has not finished: not money yet.
    AWAITING_RISK_ANALYSIS: { card: 'pending', other: 'pending' },
    // Past its due date, still payable: Vitrine keeps its own expiry and removes the charge.
    OVERDUE: { card: 'pending', other: 'pending' },
    // A card: paid (settles to RECEIVED later). A PIX of an individual's account may sit here
    // under a precautionary block of up to 72 h and end REFUNDED: only RECEIVED is paid.
    CONFIRMED: { card: 'paid', other: 'pending' },
    RECEIVED: { card: 'paid', other: 'paid' },
    // Marked paid by hand in the Asaas panel (the money came outside Asaas): the platform's own
    // operator says so, and that is the only way this status happens.
    RECEIVED_IN_CASH: { card: 'paid', other: 'paid' },
    // Collected by Asaas' debt collection after all: paid, late.
    DUNNING_RECEIVED: { card: 'paid', other: 'paid' },
    // Sent to debt collection: still unpaid.
    DUNNING_REQUESTED: { card: 'pending', other: 'pending' },
    REFUNDED: { card: 'refunded', other: 'refunded' },
    // Asked or scheduled, not finished: the money is on its way back to the buyer already, and
    // never comes back to us, so the charge counts as refunded from now on.
    REFUND_REQUESTED: { card: 'refunded', other: 'refunded' },
    REFUND_IN_PROGRESS: { card: 'refunded', other: 'refunded' },
    CHARGEBACK_REQUESTED: { card: 'chargeback', other: 'chargeback' },
    CHARGEBACK_DISPUTE: { card: 'chargeback', other: 'chargeback' },
    // The dispute was won but the acquirer has not returned the money yet: still charged back
    // until it does (the reversal itself is not modelled; it comes back as RECEIVED/CONFIRMED).
    AWAITING_CHARGEBACK_REVERSAL: { card: 'chargeback', other: 'chargeback' },
  }

/** A payment as Asaas reads it back (the fields the mapping needs). */
export interface AsaasPaymentState {
  status: string
  billingType: string
  deleted?: boolean | null
}

/** Our status of an Asaas payment; `known: false` when Asaas answered a word we do not know. */
export function chargeStatusOf(payment: AsaasPaymentState): {
  status: GatewayChargeStatus
  known: boolean
} {
  // Removed (DELETE, by us when Vitrine's own expiry passed, or in the panel): no longer
  // payable, whatever status it was left with.
  if (payment.deleted === true) return { status: 'canceled', known: true }
  const entry = PAYMENT_STATUSES[payment.status]
  if (!entry) return { status: 'pending', known: false }
  const billingType = payment.billingType as BillingType
  return { status: billingType === 'CREDIT_CARD' ? entry.card : entry.other, known: true }
}

/** What a callback asks of an order, from the charge's state read back. */
export function callbackActionOf(status: GatewayChargeStatus): CallbackAction {
  switch (status) {
    case 'paid':
    case 'failed':
    case 'refunded':
    case 'chargeback':
    case 'expired':
      return status
    // A removed charge can no longer be paid: for a pending order, that is its expiry.
    case 'canceled':
      return 'expired'
    case 'pending':
      return 'ignored'
  }
}

export type TransferState = 'pending' | 'completed' | 'failed'

/** Transfer statuses (SDK model ApiTransferGetResponseTransferStatus). */
const TRANSFER_STATUSES: Record<string, TransferState> = {
  PENDING: 'pending',
  BANK_PROCESSING: 'pending',
  DONE: 'completed',
  FAILED: 'failed',
  // Cancelled before it left (in the panel, or by the withdrawal validation refusing it):
  // nothing was paid, so for the withdrawal it failed.
  CANCELLED: 'failed',
}

export function transferStateOf(status: string): { state: TransferState; known: boolean } {
  const state = TRANSFER_STATUSES[status]
  return state ? { state, known: true } : { state: 'pending', known: false }
}
