// The payment gateway port. Adapters live in ./gateways; calls to them run outside database
// transactions and are safe to retry (the order id is the idempotency reference).
import type { PaymentMethod, PixKeyType } from '../../kit/db-schema.ts'

export interface CreateChargeInput {
  /** Our order id: the gateway's idempotency key and the reference it calls back with. */
  reference: string
  method: PaymentMethod
  amountCents: number
  description: string
  buyer: { name: string; email: string; document: string; phone: string }
  expiresAt: Date
  cardToken?: string | undefined
  /** A card saved by an earlier charge (`GatewayCharge.savedCard`): renewals charge it. */
  savedCard?: string | undefined
  installments?: number | undefined
}

/** A charge's state at the gateway. */
export type GatewayChargeStatus =
  | 'pending'
  | 'paid'
  | 'failed'
  | 'canceled'
  | 'refunded'
  | 'chargeback'
  | 'expired'

/** The gateway's view of the charge made for one of our orders. */
export interface GatewayCharge {
  gatewayChargeId: string
  status: GatewayChargeStatus
  amountCents: number
  pix: { copyPaste: string; expiresAt: Date } | null
  boleto: { barcode: string; digitableLine: string; dueDate: string } | null
  card: { status: 'approved' | 'declined'; last4: string } | null
  /** The gateway's reusable reference to an approved card (never the number), or null. */
  savedCard: string | null
}

/** Where a charge ended after a cancel: nothing of the buyer's money stays with it. */
export type ClosedChargeStatus = Exclude<GatewayChargeStatus, 'pending' | 'paid'>

export interface ChargeRef {
  /** Our order id, the reference the charge was created with. */
  reference: string
  gatewayChargeId: string
}

export type CallbackAction = 'paid' | 'failed' | 'expired' | 'refunded' | 'chargeback' | 'ignored'

export interface ParsedCallback {
  /** Unique per gateway notification: repeated deliveries of one notification share it. */
  eventId: string
  gatewayChargeId: string
  action: CallbackAction
  amountCents: number
  payload: unknown
}

export interface RefundRef {
  /** Our refund id: the gateway's idempotency key (a retried call answers the same). */
  reference: string
  gatewayChargeId: string
}

export interface RefundInput extends RefundRef {
  amountCents: number
}

export interface RefundResult {
  status: 'completed' | 'failed'
  gatewayRefundId: string | null
  /** Why the gateway refused, in words a creator can read (pt-BR). */
  failureReason: string | null
}

export interface PixTransferInput {
  /** Our withdrawal id: the gateway's idempotency key (a retried call answers the same). */
  reference: string
  amountCents: number
  pixKey: string
  pixKeyType: PixKeyType
}

export interface PixTransferResult {
  status: 'completed' | 'failed'
  gatewayTransferId: string | null
  /** Why the bank refused, in words a creator can read (pt-BR). */
  failureReason: string | null
}

/**
 * Every call throws only when the answer is unknown (a time-out, a lost connection): the caller
 * then asks again, or looks the outcome up by our reference, which is what real gateways key
 * on (Asaas `externalReference`, Mercado Pago `external_reference` + `X-Idempotency-Key`).
 */
export interface PaymentGateway {
  readonly name: string
  /** Idempotent per reference: a repeated call answers with the charge of the first. */
  createCharge(input: CreateChargeInput): Promise<GatewayCharge>
  /** The charge made for our order `reference`, or null when the gateway confirms it has none. */
  getCharge(reference: string): Promise<GatewayCharge | null>
  /** Cancels a pending charge, or voids (or fully refunds) a paid one; answers where it ended. */
  cancelCharge(input: ChargeRef): Promise<ClosedChargeStatus>
  /** Returns the charge's money to the buyer. */
  refund(input: RefundInput): Promise<RefundResult>
  /** What became of the refund asked with our `reference`; null when the gateway has none. */
  getRefund(input: RefundRef): Promise<RefundResult | null>
  /** Pays a withdrawal out to a PIX key. */
  transferPix(input: PixTransferInput): Promise<PixTransferResult>
  /** What became of the transfer made for our withdrawal `reference`; null when none exists. */
  getTransfer(reference: string): Promise<PixTransferResult | null>
  /** Verifies authenticity; null when the signature is missing or wrong. */
  parseCallback(
    rawBody: Buffer,
    headers: Record<string, string | string[] | undefined>,
  ): ParsedCallback | null
}
