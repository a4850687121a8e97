// The fake's books: every object it holds, in memory, and the events their changes raise.
// Node runs one request handler at a time between awaits, and nothing here awaits, so each
// API call is atomic, as a real gateway's would be.
import { notFound } from './errors.ts'
import { brasiliaDateTime, brasiliaDay, newId } from './format.ts'
import { paymentJson, transferJson } from './json.ts'
import type { PixKeyType } from './validate.ts'

export type BillingType = 'BOLETO' | 'CREDIT_CARD' | 'PIX' | 'UNDEFINED'

export interface Customer {
  id: string
  dateCreated: string
  name: string
  cpfCnpj: string
  email: string | null
  phone: string | null
  mobilePhone: string | null
  externalReference: string | null
  notificationDisabled: boolean
}

export interface SavedCard {
  customer: string
  last4: string
  brand: string
  token: string
}

export interface SplitRule {
  walletId: string
  fixedValue?: number
  percentualValue?: number
  externalReference?: string
  description?: string
}

export interface Payment {
  id: string
  dateCreated: string
  customer: string
  billingType: BillingType
  status: string
  valueCents: number
  /** Set when the payer paid another amount than charged (value then holds what was paid). */
  originalValueCents: number | null
  dueDate: string
  originalDueDate: string
  description: string | null
  externalReference: string | null
  installment: string | null
  installmentNumber: number | null
  confirmedDate: string | null
  paymentDate: string | null
  clientPaymentDate: string | null
  creditDate: string | null
  deleted: boolean
  nossoNumero: string | null
  card: SavedCard | null
  split: SplitRule[]
  refunds: { dateCreated: string; valueCents: number; description: string | null }[]
  chargeback: { status: string; reason: string } | null
}

export interface Installment {
  id: string
  dateCreated: string
  customer: string
  billingType: BillingType
  paymentIds: string[]
}

export interface Transfer {
  id: string
  dateCreated: string
  valueCents: number
  status: 'PENDING' | 'BANK_PROCESSING' | 'DONE' | 'CANCELLED' | 'FAILED'
  pixAddressKey: string
  pixAddressKeyType: PixKeyType
  description: string | null
  externalReference: string | null
  scheduleDate: string
  effectiveDate: string | null
  endToEndIdentifier: string | null
  failReason: string | null
}

/** One notification as Asaas posts it: `{ id, event, dateCreated, payment | transfer }`. */
export interface AsaasEvent {
  id: string
  event: string
  dateCreated: string
  payment?: Record<string, unknown>
  transfer?: Record<string, unknown>
}

export interface Limits {
  /** Smallest charge (and installment) accepted, in centavos. */
  minimumValueCents: number
  maxCardInstallments: number
}

export class Book {
  readonly customers = new Map<string, Customer>()
  readonly payments = new Map<string, Payment>()
  readonly installments = new Map<string, Installment>()
  readonly transfers = new Map<string, Transfer>()
  readonly cardTokens = new Map<string, SavedCard>()
  /** Wallets of other Asaas accounts a split may pay (the fake knows no others by itself). */
  readonly wallets = new Set<string>()
  readonly ownWalletId = newId.uuid()
  balanceCents: number
  private lastNossoNumero = 10_000_000

  constructor(
    readonly now: () => Date,
    readonly origin: string,
    readonly limits: Limits,
    balanceCents: number,
    private readonly publish: (event: AsaasEvent) => void,
  ) {
    this.balanceCents = balanceCents
  }

  today(): string {
    return brasiliaDay(this.now())
  }

  stamp(): string {
    return brasiliaDateTime(this.now())
  }

  nextNossoNumero(): string {
    return String(++this.lastNossoNumero)
  }

  /** A payment the API can act on: removed ones are gone for every call but a read. */
  livePayment(id: string): Payment {
    const payment = this.payments.get(id)
    if (!payment || payment.deleted) notFound()
    return payment
  }

  transfer(id: string): Transfer {
    const transfer = this.transfers.get(id)
    if (!transfer) notFound()
    return transfer
  }

  /** The event carries the object as it is now (a snapshot, like Asaas' queue). */
  emitPayment(event: string, payment: Payment): void {
    this.publish({ ...this.envelope(event), payment: paymentJson(payment, this.origin) })
  }

  emitTransfer(event: string, transfer: Transfer): void {
    this.publish({ ...this.envelope(event), transfer: transferJson(transfer, this.origin) })
  }

  private envelope(event: string) {
    return { id: newId.event(), event, dateCreated: this.stamp() }
  }
}
