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
  /** A card saved by an earlier charge (`CreatedCharge.savedCard`): renewals charge it. */
  savedCard?: string | undefined
  installments?: number | undefined
}

export interface CreatedCharge {
  gatewayChargeId: string
  status: 'pending' | 'paid' | 'failed'
  pix: { copyPaste: string; expiresAt: Date } | null
  boleto: { barcode: string; digitableLine: string; dueDate: string } | null
  card: { status: 'approved' | 'declined'; last4: string } | null
  /** The gateway's reusable reference to an approved card (never the number), or null. */
  savedCard: string | null
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

export interface RefundInput {
  /** Our refund id: the gateway's idempotency key (a retried call answers the same). */
  reference: string
  gatewayChargeId: string
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

export interface PaymentGateway {
  readonly name: string
  createCharge(input: CreateChargeInput): Promise<CreatedCharge>
  /** Returns the charge's money to the buyer. Throws only when the answer is unknown (retry). */
  refund(input: RefundInput): Promise<RefundResult>
  /** Pays a withdrawal out to a PIX key. Throws only when the answer is unknown (retry). */
  transferPix(input: PixTransferInput): Promise<PixTransferResult>
  /** Verifies authenticity; null when the signature is missing or wrong. */
  parseCallback(
    rawBody: Buffer,
    headers: Record<string, string | string[] | undefined>,
  ): ParsedCallback | null
}
