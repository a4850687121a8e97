// The payment gateway port. Adapters live in ./gateways; calls to them run outside database
// transactions and are safe to retry (the order id is the idempotency reference).
//
// Three kinds of answer, for every call:
// - a value: the gateway answered and we know what it did;
// - `GatewayRefused` thrown: the gateway answered that it did nothing (a 4xx with its reason,
//   e.g. an invalid CPF, a card number it cannot use, our credentials refused);
// - anything else thrown: the answer is unknown (a time-out, a lost connection, a 5xx). The
//   caller asks again with the same reference, or looks the outcome up by it; it never guesses.
import type { PaymentMethod } from '../../kit/db-schema.ts'
import type { PixTransferResult } from '../payouts/provider.ts'

/** Card data typed by the buyer, for gateways without browser tokenization (Asaas). Sent once
 * to the gateway: never stored, never logged (the request logger redacts `card`). */
export interface CardData {
  holderName: string
  number: string
  expiryMonth: string
  expiryYear: string
  cvv: string
}

/** A payer's postal address, which some gateways register a boleto with (Mercado Pago). */
export interface BuyerAddress {
  /** CEP, 8 digits. */
  postalCode: string
  street: string
  number: string
  neighborhood: string
  city: string
  /** UF, two letters. */
  state: string
}

export interface CreateChargeInput {
  /** Our order id: the gateway's idempotency key and the reference it calls back with. */
  reference: string
  method: PaymentMethod
  /** What the buyer pays in all (installment interest included). */
  amountCents: number
  description: string
  buyer: {
    name: string
    email: string
    document: string
    phone: string
    /** Asaas asks for the card holder's address: CEP digits and number. */
    postalCode?: string | undefined
    addressNumber?: string | undefined
    /** The full address, where `capabilities.boletoNeedsAddress` (a boleto's payer). */
    address?: BuyerAddress | undefined
  }
  /** PIX: when the QR stops being payable (Vitrine's own expiry; the gateway's may be longer). */
  expiresAt: Date
  /** A browser token (MercadoPago.js) or a sandbox test token (`tok_approved`). */
  cardToken?: string | undefined
  /** Card data for gateways that take it server-side (`cardEntry.kind === 'card-data'`). */
  cardData?: CardData | undefined
  /** A card saved by an earlier charge (`GatewayCharge.savedCard`): renewals charge it. */
  savedCard?: string | undefined
  /** Card installments (1 when absent). */
  installments?: number | undefined
  /** The buyer's IP, which card gateways ask for their fraud checks. */
  remoteIp?: string | undefined
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
  /** The EMV BR Code; Vitrine draws the QR image from it itself. */
  pix: { copyPaste: string; expiresAt: Date } | null
  /** `url`: the gateway's printable boleto (PDF or page), null when it has none. */
  boleto: { barcode: string; digitableLine: string; dueDate: string; url: string | null } | null
  /** `declineReason`: why a declined card was refused, in words a buyer can read (pt-BR). */
  card: { status: 'approved' | 'declined'; last4: string; declineReason: string | null } | null
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
  /** What the charge's state AT THE GATEWAY (read back, not the notification's word) means. */
  action: CallbackAction
  /** The amount the gateway holds for the charge, read back. */
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
  /** `pending`: accepted, not finished (a PIX refund in progress); looked up again later. */
  status: 'completed' | 'pending' | 'failed'
  gatewayRefundId: string | null
  /** Why the gateway refused, in words a creator can read (pt-BR). */
  failureReason: string | null
}

/** An incoming gateway notification, as the callback route received it. */
export interface CallbackRequest {
  rawBody: Buffer
  headers: Record<string, string | string[] | undefined>
  query: Record<string, string | undefined>
}

/** What an authentic notification turned out to be, after reading the resource back. */
export type CallbackReading =
  | { kind: 'charge'; callback: ParsedCallback }
  | { kind: 'transfer'; eventId: string; reference: string; result: PixTransferResult }
  | { kind: 'ignored'; eventId: string | null; why: string }

/** Reads a gateway's notifications: shared by a payment gateway and a payout provider. */
export interface CallbackReader {
  /**
   * Null when the notification is not authentic (missing or wrong token or signature: 401, and
   * nothing changes). Otherwise reads the resource back from the gateway before saying what it
   * is; throws when that read-back's answer is unknown (the route answers 503 and the gateway
   * delivers again; reconciliation covers it meanwhile).
   */
  readCallback(request: CallbackRequest): Promise<CallbackReading | null>
}

/** How the checkout page collects a card for this gateway. */
export type CardEntry =
  /** The sandbox: test tokens typed or picked (`tok_approved`, `tok_declined`). */
  | { kind: 'test-token' }
  /** A script on the page turns the card into a token in the browser (MercadoPago.js). */
  | { kind: 'browser-token'; scriptUrl: string; publicKey: string }
  /** Card data posted to Vitrine and forwarded to the gateway (Asaas): PCI SAQ D territory. */
  | { kind: 'card-data' }

/** What the checkout must know of a gateway before offering a method. */
export interface GatewayCapabilities {
  /** Approved cards are kept for later charges; without it a card cannot pay a subscription. */
  savesCards: boolean
  /** A boleto is registered with the payer's full address (Mercado Pago since 2024). */
  boletoNeedsAddress: boolean
}

export interface PaymentGateway extends CallbackReader {
  readonly name: string
  readonly cardEntry: CardEntry
  readonly capabilities: GatewayCapabilities
  /** Idempotent per reference: a repeated call answers with the charge of the first. */
  createCharge(input: CreateChargeInput): Promise<GatewayCharge>
  /** The charge made for our order `reference`, or null when the gateway confirms it has none. */
  getCharge(reference: string): Promise<GatewayCharge | null>
  /** Cancels a pending charge, or voids (or fully refunds) a paid one; answers where it ended. */
  cancelCharge(input: ChargeRef): Promise<ClosedChargeStatus>
  /** Returns the charge's money to the buyer, in full or in part. */
  refund(input: RefundInput): Promise<RefundResult>
  /** What became of the refund asked with our `reference`; null when the gateway has none. */
  getRefund(input: RefundRef): Promise<RefundResult | null>
}

/** The gateway answered that it did nothing, and why (a known answer, not an unknown one). */
export class GatewayRefused extends Error {
  constructor(
    /** In words a buyer or creator can read (pt-BR), from the gateway's own description. */
    readonly reason: string,
    /** `input`: what we sent was refused (→ 400); `gateway`: our setup was (→ 502). */
    readonly blame: 'input' | 'gateway',
  ) {
    super(reason)
    this.name = 'GatewayRefused'
  }
}
