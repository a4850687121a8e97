// The payout port: how a withdrawal's money reaches the holder's PIX key. Separate from the
// payment gateway, because a gateway that takes payments may pay nothing out (Mercado Pago has
// no general payout API) and a platform may pay out by hand.
import type { PixKeyType } from '../../kit/db-schema.ts'
import type { CallbackReader } from '../payments/gateway.ts'

export interface PixTransferInput {
  /** Our withdrawal id: the provider's idempotency key / external reference. */
  reference: string
  amountCents: number
  pixKey: string
  pixKeyType: PixKeyType
  description: string
}

export interface PixTransferResult {
  /** `pending`: accepted, the bank has not finished (Asaas until TRANSFER_DONE / FAILED). */
  status: 'pending' | 'completed' | 'failed'
  gatewayTransferId: string | null
  /** Why the bank refused, in words a creator can read (pt-BR). */
  failureReason: string | null
}

/** Pays withdrawals out. `manual`: nothing automatic; the admin sends the PIX by hand. */
export interface PayoutProvider extends Partial<CallbackReader> {
  readonly name: 'sandbox' | 'asaas' | 'manual'
  /** False for `manual`: "pay" then records the end-to-end id the admin typed. */
  readonly automatic: boolean
  transferPix(input: PixTransferInput): Promise<PixTransferResult>
  /** What became of the transfer made for withdrawal `reference`; null when none exists. */
  getTransfer(reference: string): Promise<PixTransferResult | null>
}
