// `POST /v1/payments` bodies for PIX, boleto and card, and the payment resource read back as
// the port's GatewayCharge. Field names and rules: docs/gateways/mercadopago.md.
import { onlyDigits } from '../../../../kit/documents.ts'
import { toBrl, toCents } from '../../../../kit/money.ts'
import { parseDigitableLine } from '../../boleto.ts'
import { type CreateChargeInput, type GatewayCharge, GatewayRefused } from '../../gateway.ts'
import { parseCardToken } from './card-token.ts'
import { chargeStatusOf, declineReasonOf } from './statuses.ts'

/** The payment resource, as far as Vitrine reads it [SDK payment/commonTypes.ts]. */
export interface MpPayment {
  id: number
  status: string
  status_detail?: string | null
  transaction_amount: number
  transaction_amount_refunded?: number | null
  external_reference?: string | null
  payment_method_id?: string | null
  payment_type_id?: string | null
  date_of_expiration?: string | null
  card?: { id?: string | null; last_four_digits?: string | null } | null
  transaction_details?: {
    external_resource_url?: string | null
    digitable_line?: string | null
    barcode?: { content?: string | null } | null
  } | null
  barcode?: { content?: string | null } | null
  point_of_interaction?: { transaction_data?: { qr_code?: string | null } | null } | null
}

/**
 * Mercado Pago refuses a PIX expiring sooner than 30 minutes ahead [PIX]; Vitrine's own PIX
 * lives 30 minutes by default (PIX_EXPIRES_AFTER). So the date sent is our expiry, or, when that
 * is too soon, the order's creation plus 32 minutes (the minimum and 2 minutes for the request to
 * arrive). Computed from the order id (a UUID v7 carries its creation time), never from "now":
 * a retry must send the same body under the same idempotency key. Vitrine cancels the payment
 * when its own expiry passes, so the minute or two more at Mercado Pago is not meant to be paid.
 */
export const PIX_MIN_LIFE_MS = 32 * 60_000

export function pixExpiryFor(input: Pick<CreateChargeInput, 'reference' | 'expiresAt'>): Date {
  const createdAt = uuidv7Time(input.reference) ?? input.expiresAt.getTime()
  return new Date(Math.max(input.expiresAt.getTime(), createdAt + PIX_MIN_LIFE_MS))
}

/** The milliseconds a UUID v7 was made at (its first 48 bits), or null for another reference. */
function uuidv7Time(reference: string): number | null {
  const match = /^([0-9a-f]{8})-([0-9a-f]{4})-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i.exec(
    reference,
  )
  return match ? Number.parseInt(match[1]! + match[2]!, 16) : null
}

export function createPaymentBody(
  input: CreateChargeInput,
  ctx: { notificationUrl: string },
): Record<string, unknown> {
  const common = {
    transaction_amount: toBrl(input.amountCents),
    description: input.description,
    external_reference: input.reference,
    notification_url: ctx.notificationUrl,
  }
  if (input.method === 'pix') {
    return {
      ...common,
      payment_method_id: 'pix',
      date_of_expiration: mpDateTime(pixExpiryFor(input)),
      payer: payerOf(input),
    }
  }
  if (input.method === 'boleto') {
    return { ...common, payment_method_id: 'bolbradesco', payer: boletoPayerOf(input) }
  }
  // No saved cards (see chargeOf): a renewal's `savedCard` never comes from this adapter.
  const parsed = input.cardToken ? parseCardToken(input.cardToken) : null
  if (!parsed) {
    throw new GatewayRefused(
      'Os dados do cartão não chegaram completos. Digite o cartão de novo.',
      'input',
    )
  }
  return {
    ...common,
    payment_method_id: parsed.paymentMethodId,
    token: parsed.token,
    installments: input.installments ?? 1,
    ...(parsed.issuerId ? { issuer_id: Number(parsed.issuerId) } : {}),
    payer: payerOf(input),
  }
}

function payerOf(input: CreateChargeInput) {
  const [first, ...rest] = input.buyer.name.trim().split(/\s+/)
  const document = onlyDigits(input.buyer.document)
  return {
    email: input.buyer.email,
    first_name: first ?? '',
    last_name: rest.join(' ') || (first ?? ''),
    identification: { type: document.length === 14 ? 'CNPJ' : 'CPF', number: document },
  }
}

function boletoPayerOf(input: CreateChargeInput) {
  const a = input.buyer.address
  const complete =
    a && [a.postalCode, a.street, a.number, a.neighborhood, a.city, a.state].every((v) => v?.trim())
  if (!a || !complete) {
    throw new GatewayRefused(
      'Para pagar com boleto, informe o endereço completo (CEP, rua, número, bairro, cidade e UF).',
      'input',
    )
  }
  return {
    ...payerOf(input),
    address: {
      zip_code: onlyDigits(a.postalCode),
      street_name: a.street.trim(),
      street_number: a.number.trim(),
      neighborhood: a.neighborhood.trim(),
      city: a.city.trim(),
      federal_unit: a.state.trim().toUpperCase(),
    },
  }
}

/** The payment as the port's charge. Throws (unknown) on a status we cannot read. */
export function chargeOf(p: MpPayment): GatewayCharge {
  const status = chargeStatusOf(p)
  const tx = p.point_of_interaction?.transaction_data
  const details = p.transaction_details
  const isCard = p.payment_type_id === 'credit_card' || p.payment_type_id === 'debit_card'
  const isBoleto = p.payment_type_id === 'ticket'
  const expiresAt = p.date_of_expiration ? new Date(p.date_of_expiration) : null
  return {
    gatewayChargeId: String(p.id),
    status,
    amountCents: toCents(p.transaction_amount),
    pix: tx?.qr_code ? { copyPaste: tx.qr_code, expiresAt: expiresAt ?? new Date(0) } : null,
    boleto: isBoleto
      ? {
          barcode: barcodeOf(p),
          digitableLine: details?.digitable_line ?? '',
          dueDate: expiresAt ? brasiliaDate(expiresAt) : '',
          url: details?.external_resource_url ?? null,
        }
      : null,
    card: isCard ? cardOf(p, status) : null,
    // Saving cards needs Mercado Pago customers (`/v1/customers/{id}/cards`): not done, so a
    // renewal asks for the card again (see docs/gateways/mercadopago.md, Adapter).
    savedCard: null,
  }
}

/** The barcode where Mercado Pago puts it, else decoded from the digitable line. */
function barcodeOf(p: MpPayment): string {
  const content = p.barcode?.content ?? p.transaction_details?.barcode?.content
  if (content) return content
  const line = p.transaction_details?.digitable_line
  return line ? parseDigitableLine(line).barcode : ''
}

function cardOf(p: MpPayment, status: GatewayCharge['status']): GatewayCharge['card'] {
  const last4 = p.card?.last_four_digits ?? ''
  if (status === 'failed') {
    return { status: 'declined', last4, declineReason: declineReasonOf(p.status_detail) }
  }
  // A card under review (`in_process`) is neither approved nor declined yet: no card answer;
  // the charge is pending and its notification settles it.
  if (status === 'pending') return null
  return { status: 'approved', last4, declineReason: null }
}

const BRASILIA_OFFSET_MS = 3 * 3_600_000

/** Mercado Pago's date format, `yyyy-MM-dd'T'HH:mm:ss.SSS-03:00`, in Brasília time [PIX]. */
export function mpDateTime(at: Date): string {
  const local = new Date(at.getTime() - BRASILIA_OFFSET_MS)
  return `${local.toISOString().slice(0, -1)}-03:00`
}

/** The calendar day in Brasília (a boleto's due date). */
function brasiliaDate(at: Date): string {
  return new Date(at.getTime() - BRASILIA_OFFSET_MS).toISOString().slice(0, 10)
}
