// The objects as the API returns them (field names and shapes from the docs' examples and the
// official SDK's models; see docs/gateways/asaas.md).
import { toBrl } from '../../../src/kit/money.ts'
import type { Customer, Installment, Payment, Transfer } from './book.ts'
import { fail } from './errors.ts'

function refundedCents(payment: Payment): number {
  return payment.refunds.reduce((sum, r) => sum + r.valueCents, 0)
}

export function paymentJson(p: Payment, origin: string): Record<string, unknown> {
  const received = p.paymentDate !== null
  const slug = p.id.slice(4)
  return {
    object: 'payment',
    id: p.id,
    dateCreated: p.dateCreated,
    customer: p.customer,
    subscription: null,
    installment: p.installment,
    paymentLink: null,
    value: toBrl(p.valueCents),
    netValue: toBrl(p.valueCents),
    originalValue: p.originalValueCents === null ? null : toBrl(p.originalValueCents),
    interestValue: null,
    description: p.description,
    billingType: p.billingType,
    creditCard: p.card
      ? {
          creditCardNumber: p.card.last4,
          creditCardBrand: p.card.brand,
          creditCardToken: p.card.token,
        }
      : null,
    canBePaidAfterDueDate: p.billingType === 'BOLETO',
    pixTransaction: null,
    status: p.status,
    dueDate: p.dueDate,
    originalDueDate: p.originalDueDate,
    confirmedDate: p.confirmedDate,
    paymentDate: p.paymentDate,
    clientPaymentDate: p.clientPaymentDate,
    installmentNumber: p.installmentNumber,
    invoiceUrl: `${origin}/i/${slug}`,
    invoiceNumber: slug.slice(0, 8),
    externalReference: p.externalReference,
    deleted: p.deleted,
    anticipated: false,
    anticipable: false,
    creditDate: p.creditDate,
    estimatedCreditDate: p.creditDate,
    transactionReceiptUrl: received ? `${origin}/comprovantes/${slug}` : null,
    nossoNumero: p.nossoNumero,
    bankSlipUrl: p.billingType === 'BOLETO' ? `${origin}/b/pdf/${slug}` : null,
    discount: { value: 0, limitDate: null, dueDateLimitDays: 0, type: 'FIXED' },
    fine: { value: 0, type: 'FIXED' },
    interest: { value: 0, type: 'PERCENTAGE' },
    split: p.split.map((rule) => ({
      ...rule,
      status: received ? 'DONE' : 'PENDING',
      refusalReason: null,
    })),
    postalService: false,
    custody: null,
    chargeback: p.chargeback,
    refunds:
      p.refunds.length === 0
        ? null
        : p.refunds.map((r) => ({
            dateCreated: r.dateCreated,
            status: 'DONE',
            value: toBrl(r.valueCents),
            description: r.description,
            transactionReceiptUrl: `${origin}/comprovantes/estorno/${slug}`,
          })),
  }
}

/** What is left to refund of a payment, in centavos. */
export function refundableCents(payment: Payment): number {
  return payment.valueCents - refundedCents(payment)
}

export function customerJson(c: Customer): Record<string, unknown> {
  return {
    object: 'customer',
    id: c.id,
    dateCreated: c.dateCreated,
    name: c.name,
    email: c.email,
    phone: c.phone,
    mobilePhone: c.mobilePhone,
    address: null,
    addressNumber: null,
    complement: null,
    province: null,
    postalCode: null,
    cpfCnpj: c.cpfCnpj,
    personType: c.cpfCnpj.length === 11 ? 'FISICA' : 'JURIDICA',
    deleted: false,
    additionalEmails: null,
    externalReference: c.externalReference,
    notificationDisabled: c.notificationDisabled,
    observations: null,
    foreignCustomer: false,
  }
}

export function installmentJson(i: Installment, payments: Payment[]): Record<string, unknown> {
  const total = payments.reduce((sum, p) => sum + p.valueCents, 0)
  return {
    object: 'installment',
    id: i.id,
    value: toBrl(total),
    netValue: toBrl(total),
    paymentValue: toBrl(payments[0]?.valueCents ?? 0),
    installmentCount: i.paymentIds.length,
    billingType: i.billingType,
    customer: i.customer,
    dateCreated: i.dateCreated,
    deleted: false,
    refunds: null,
  }
}

export function transferJson(t: Transfer, origin: string): Record<string, unknown> {
  return {
    object: 'transfer',
    id: t.id,
    type: 'BANK_ACCOUNT',
    dateCreated: t.dateCreated,
    value: toBrl(t.valueCents),
    netValue: toBrl(t.valueCents),
    status: t.status,
    transferFee: 0,
    effectiveDate: t.effectiveDate,
    scheduleDate: t.scheduleDate,
    endToEndIdentifier: t.endToEndIdentifier,
    authorized: true,
    failReason: t.failReason,
    externalReference: t.externalReference,
    transactionReceiptUrl: t.status === 'DONE' ? `${origin}/comprovantes/${t.id}` : null,
    operationType: 'PIX',
    description: t.description,
    recurring: null,
    bankAccount: null,
  }
}

/** Paged list: `offset` (default 0) and `limit` (default 10, at most 100). */
export function listJson<T>(items: T[], query: URLSearchParams): Record<string, unknown> {
  const offset = Number(query.get('offset') ?? 0)
  const limit = Number(query.get('limit') ?? 10)
  if (!Number.isInteger(offset) || offset < 0 || !Number.isInteger(limit) || limit < 1)
    fail(400, 'invalid_parameter', 'Os parâmetros offset e limit devem ser inteiros positivos.')
  const page = items.slice(offset, offset + Math.min(limit, 100))
  return {
    object: 'list',
    hasMore: offset + page.length < items.length,
    totalCount: items.length,
    limit: Math.min(limit, 100),
    offset,
    data: page,
  }
}
