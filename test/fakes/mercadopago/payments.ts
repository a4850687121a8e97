// `POST /v1/payments`: what a create request must carry for PIX, boleto and card, and the
// payment it makes. Sources and assumptions: docs/gateways/mercadopago.md.
import { isValidCnpj, isValidCpf } from '../../../src/kit/documents.ts'
import { toCents } from '../../../src/kit/money.ts'
import { buildBoleto } from '../../../src/modules/payments/boleto.ts'
import { buildPixCopyPaste } from '../../../src/modules/payments/brcode.ts'
import { type CardOutcome, type CardToken, OUTCOMES } from './cards.ts'
import { ApiError, badRequest } from './http.ts'

export type Method = 'pix' | 'boleto' | 'card'

export interface Refund {
  id: number
  amountCents: number
  createdAt: Date
}

export interface Payment {
  id: number
  method: Method
  paymentMethodId: string
  issuerId: number | null
  status: string
  statusDetail: string
  amountCents: number
  refundedCents: number
  installments: number
  createdAt: Date
  updatedAt: Date
  approvedAt: Date | null
  expiresAt: Date | null
  description: string | null
  externalReference: string | null
  notificationUrl: string | null
  payer: Record<string, any>
  card: CardToken | null
  pix: { qrCode: string } | null
  boleto: { barcode: string; digitableLine: string } | null
  refunds: Refund[]
}

const CARD_BRANDS = new Set(['visa', 'master', 'amex', 'elo'])
const MINUTE = 60_000
const DAY = 86_400_000
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/
/** The fake merchant's PIX key and the boleto's bank (Bradesco, as `bolbradesco` says). */
const PIX_KEY = '7d9f0335-8dcc-4054-9bf9-0d5f5b8a4d21'
const BRADESCO = '237'

export interface CreateContext {
  id: number
  now: Date
  /** The token if it can still pay (unknown, used or expired ones throw). */
  cardToken: (id: string) => CardToken
  outcomeOf: (token: CardToken) => CardOutcome
  maxInstallments: number
  minInstallmentCents: number
}

export function createPayment(body: Record<string, any>, ctx: CreateContext): Payment {
  const amountCents = amountOf(body.transaction_amount)
  const methodId = body.payment_method_id
  if (methodId === undefined || methodId === null) {
    throw badRequest(4001, "payment_method_id attribute can't be null")
  }
  const method: Method | null =
    methodId === 'pix'
      ? 'pix'
      : methodId === 'bolbradesco'
        ? 'boleto'
        : CARD_BRANDS.has(methodId)
          ? 'card'
          : null
  if (!method) throw badRequest(3028, 'Invalid payment_method_id')
  const payer = body.payer
  if (typeof payer !== 'object' || payer === null) {
    throw badRequest(4006, 'payer attribute is malformed')
  }
  if (typeof payer.email !== 'string' || !EMAIL.test(payer.email)) {
    throw badRequest(4050, 'payer.email must be a valid email')
  }
  const notificationUrl = urlOf(body.notification_url)
  for (const field of ['external_reference', 'description'] as const) {
    if (body[field] !== undefined && typeof body[field] !== 'string') {
      throw badRequest(`invalid_${field}`, `${field} must be a string`)
    }
  }
  if (body.capture === false) {
    throw badRequest('unsupported', 'capture=false (two-step card payments) is not in the fake')
  }
  const payment: Payment = {
    id: ctx.id,
    method,
    paymentMethodId: methodId,
    issuerId: null,
    status: 'pending',
    statusDetail: method === 'pix' ? 'pending_waiting_transfer' : 'pending_waiting_payment',
    amountCents,
    refundedCents: 0,
    installments: 1,
    createdAt: ctx.now,
    updatedAt: ctx.now,
    approvedAt: null,
    expiresAt: null,
    description: body.description ?? null,
    externalReference: body.external_reference ?? null,
    notificationUrl,
    payer,
    card: null,
    pix: null,
    boleto: null,
    refunds: [],
  }
  if (method === 'pix') {
    // PIX: 24 h by default, 30 minutes to 30 days when given (PIX integration page).
    payment.expiresAt = expiryOf(body.date_of_expiration, ctx.now, 24 * 60 * MINUTE, {
      min: 30 * MINUTE,
      max: 30 * DAY,
    })
    payment.pix = { qrCode: pixCode(payment) }
  } else if (method === 'boleto') {
    requireBoletoPayer(payer)
    // Boleto: 3 days by default, 1 to 30 days when given (boleto page).
    payment.expiresAt = expiryOf(body.date_of_expiration, ctx.now, 3 * DAY, {
      min: DAY,
      max: 30 * DAY,
    })
    payment.boleto = boletoOf(payment)
  } else {
    chargeCard(payment, body, ctx)
  }
  return payment
}

function amountOf(value: unknown): number {
  if (value === undefined || value === null) {
    throw badRequest(4002, "transaction_amount attribute can't be null")
  }
  if (typeof value !== 'number')
    throw badRequest(4003, 'transaction_amount attribute must be numeric')
  try {
    const cents = toCents(value)
    if (cents > 0) return cents
  } catch {}
  throw badRequest(4037, 'Invalid transaction_amount')
}

function urlOf(value: unknown): string | null {
  if (value === undefined || value === null) return null
  if (typeof value !== 'string' || value.length >= 500) {
    throw badRequest(4021, 'notificaction_url attribute must be shorter than 500 character')
  }
  try {
    const url = new URL(value)
    if (url.protocol === 'http:' || url.protocol === 'https:') return value
  } catch {}
  throw badRequest(4020, 'notificaction_url attribute must be url valid')
}

function expiryOf(
  value: unknown,
  now: Date,
  fallbackMs: number,
  range: { min: number; max: number },
): Date {
  if (value === undefined || value === null) return new Date(now.getTime() + fallbackMs)
  const iso = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,3})?(Z|[+-]\d{2}:\d{2})$/
  const at = typeof value === 'string' && iso.test(value) ? new Date(value) : null
  if (!at || Number.isNaN(at.getTime())) {
    throw badRequest(
      'invalid_date_of_expiration',
      "date_of_expiration must be yyyy-MM-dd'T'HH:mm:ss.SSSZ",
    )
  }
  const ahead = at.getTime() - now.getTime()
  if (ahead < range.min || ahead > range.max) {
    throw badRequest('invalid_date_of_expiration', 'date_of_expiration is out of the allowed range')
  }
  return at
}

function requireBoletoPayer(payer: Record<string, any>) {
  for (const field of ['first_name', 'last_name'] as const) {
    if (typeof payer[field] !== 'string' || !payer[field].trim()) {
      throw badRequest(`missing_payer_${field}`, `payer.${field} is required for boleto`)
    }
  }
  const { type, number } = payer.identification ?? {}
  const digits = String(number ?? '')
  const valid = (type === 'CPF' && isValidCpf(digits)) || (type === 'CNPJ' && isValidCnpj(digits))
  if (!valid || !/^\d+$/.test(digits)) {
    throw badRequest(2067, 'Invalid user identification number')
  }
  const address = payer.address ?? {}
  for (const field of ['zip_code', 'street_name', 'street_number', 'neighborhood', 'city']) {
    if (address[field] === undefined || String(address[field]).trim() === '') {
      throw badRequest('missing_payer_address', `payer.address.${field} is required for boleto`)
    }
  }
  if (!/^\d{8}$/.test(String(address.zip_code).replace('-', ''))) {
    throw badRequest('invalid_payer_address', 'payer.address.zip_code must be a CEP')
  }
  if (!/^[A-Z]{2}$/.test(String(address.federal_unit ?? ''))) {
    throw badRequest('invalid_payer_address', 'payer.address.federal_unit must be a UF')
  }
}

function pixCode(p: Payment): string {
  return buildPixCopyPaste({
    pixKey: PIX_KEY,
    merchantName: 'VITRINE FAKE MP',
    merchantCity: 'SAO PAULO',
    amountCents: p.amountCents,
    txid: `MP${p.id}`,
  })
}

function boletoOf(p: Payment) {
  const freeField = String(p.id).padStart(25, '0').slice(-25)
  const { barcode, digitableLine } = buildBoleto({
    bankCode: BRADESCO,
    amountCents: p.amountCents,
    // The due day is the expiry's calendar day in Brasília (UTC−3).
    dueDate: new Date(p.expiresAt!.getTime() - 3 * 3_600_000),
    freeField,
  })
  return { barcode, digitableLine }
}

function chargeCard(payment: Payment, body: Record<string, any>, ctx: CreateContext) {
  if (typeof body.token !== 'string' || !body.token) {
    throw badRequest(4000, "card attribute can't be null")
  }
  if (body.installments === undefined || body.installments === null) {
    throw badRequest(4004, "installments attribute can't be null")
  }
  if (typeof body.installments !== 'number') {
    throw badRequest(4005, 'installments attribute must be numeric')
  }
  const n = body.installments
  const tooSmall = payment.amountCents < n * ctx.minInstallmentCents
  if (!Number.isInteger(n) || n < 1 || n > ctx.maxInstallments || (n > 1 && tooSmall)) {
    throw badRequest(109, 'Invalid number of shares for this payment_method_id')
  }
  const issuer = body.issuer_id
  if (issuer !== undefined && issuer !== null && !/^\d+$/.test(String(issuer))) {
    throw badRequest('invalid_issuer_id', 'issuer_id must be numeric')
  }
  const token = ctx.cardToken(body.token)
  if (token.brand.id !== payment.paymentMethodId) {
    throw new ApiError(400, 'bad_request', 'diff_param_bins', [
      { code: 'diff_param_bins', description: 'payment_method_id does not match the card BIN' },
    ])
  }
  token.usedAt = ctx.now
  const outcome = OUTCOMES[ctx.outcomeOf(token)]
  payment.card = token
  payment.installments = n
  payment.issuerId = issuer === undefined || issuer === null ? token.brand.issuerId : Number(issuer)
  payment.status = outcome.status
  payment.statusDetail = outcome.statusDetail
  if (outcome.status === 'approved') payment.approvedAt = ctx.now
}
