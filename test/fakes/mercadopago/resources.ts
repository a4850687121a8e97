// The payment and refund resources as the API answers them (`GET /v1/payments/{id}`, …).
import { installmentCents, toBrl } from '../../../src/kit/money.ts'
import { mpDate } from './http.ts'
import type { Method, Payment, Refund } from './payments.ts'

export function refundResource(p: Payment, r: Refund) {
  return {
    id: r.id,
    payment_id: p.id,
    amount: toBrl(r.amountCents),
    metadata: {},
    source: { id: '123456789', name: 'Vitrine Fake', type: 'collector' },
    date_created: mpDate(r.createdAt),
    unique_sequence_number: null,
    refund_mode: 'standard',
    adjustment_amount: 0,
    status: 'approved',
    reason: null,
  }
}

const TYPE_OF: Record<Method, string> = {
  pix: 'bank_transfer',
  boleto: 'ticket',
  card: 'credit_card',
}

export function paymentResource(p: Payment, baseUrl: string, qrCodeBase64: string | null) {
  const helperUrl = `${baseUrl}/_fake/pay/${p.id}`
  const card = p.card
  return {
    id: p.id,
    date_created: mpDate(p.createdAt),
    date_approved: p.approvedAt ? mpDate(p.approvedAt) : null,
    date_last_updated: mpDate(p.updatedAt),
    date_of_expiration: p.expiresAt ? mpDate(p.expiresAt) : null,
    money_release_date: p.approvedAt ? mpDate(p.approvedAt) : null,
    operation_type: 'regular_payment',
    issuer_id: p.issuerId === null ? null : String(p.issuerId),
    payment_method_id: p.paymentMethodId,
    payment_type_id: TYPE_OF[p.method],
    payment_method: { id: p.paymentMethodId, type: TYPE_OF[p.method] },
    status: p.status,
    status_detail: p.statusDetail,
    currency_id: 'BRL',
    description: p.description,
    live_mode: false,
    collector_id: 123456789,
    payer: {
      id: null,
      type: null,
      email: p.payer.email,
      identification: p.payer.identification ?? null,
      first_name: p.payer.first_name ?? null,
      last_name: p.payer.last_name ?? null,
    },
    metadata: {},
    external_reference: p.externalReference,
    transaction_amount: toBrl(p.amountCents),
    transaction_amount_refunded: toBrl(p.refundedCents),
    coupon_amount: 0,
    installments: p.installments,
    transaction_details: {
      net_received_amount: p.status === 'approved' ? toBrl(p.amountCents) : 0,
      total_paid_amount: toBrl(p.amountCents),
      overpaid_amount: 0,
      installment_amount:
        p.method === 'card' ? toBrl(installmentCents(p.amountCents, p.installments)) : 0,
      financial_institution: null,
      payment_method_reference_id: p.boleto ? String(p.id) : null,
      external_resource_url: p.method === 'card' ? null : helperUrl,
      ...(p.boleto
        ? { digitable_line: p.boleto.digitableLine, barcode: { content: p.boleto.barcode } }
        : {}),
    },
    ...(p.boleto ? { barcode: { content: p.boleto.barcode } } : {}),
    fee_details: [],
    captured: true,
    binary_mode: false,
    card: card
      ? {
          id: null,
          first_six_digits: card.bin.slice(0, 6),
          last_four_digits: card.lastFour,
          expiration_month: card.expirationMonth,
          expiration_year: card.expirationYear,
          cardholder: card.cardholder,
        }
      : {},
    notification_url: p.notificationUrl,
    refunds: p.refunds.map((r) => refundResource(p, r)),
    point_of_interaction: p.pix
      ? {
          type: 'PIX',
          sub_type: null,
          transaction_data: {
            qr_code: p.pix.qrCode,
            qr_code_base64: qrCodeBase64,
            ticket_url: helperUrl,
            transaction_id: null,
          },
        }
      : { type: 'UNSPECIFIED' },
  }
}
