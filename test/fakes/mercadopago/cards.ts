// Card tokens (`POST /v1/card_tokens`), card brands by BIN, and the sandbox's cardholder-name
// outcomes. See docs/gateways/mercadopago.md §Cards for the sources.
import { randomBytes } from 'node:crypto'
import { isValidCnpj, isValidCpf } from '../../../src/kit/documents.ts'
import { ApiError, badRequest, mpDate } from './http.ts'

/** A token lives 7 days and pays once (MercadoPago.js docs, "Create card token"). */
export const TOKEN_LIFETIME_MS = 7 * 86_400_000

export interface CardToken {
  id: string
  bin: string
  lastFour: string
  brand: Brand
  expirationMonth: number
  expirationYear: number
  cardholder: { name: string; identification: { type: string; number: string } }
  createdAt: Date
  dueAt: Date
  usedAt: Date | null
}

export interface Brand {
  id: string
  name: string
  issuerId: number
  cvvLength: number
}

// Issuer ids are the fake's own; the BIN ranges are the networks' public ones.
const BRANDS: Array<{ pattern: RegExp; brand: Brand }> = [
  {
    pattern:
      /^(401178|401179|431274|438935|451416|457393|45763[12]|504175|5067|509|627780|636297|636368|650|6516|6550)/,
    brand: { id: 'elo', name: 'Elo', issuerId: 687, cvvLength: 3 },
  },
  {
    pattern: /^3[47]/,
    brand: { id: 'amex', name: 'American Express', issuerId: 26, cvvLength: 4 },
  },
  { pattern: /^4/, brand: { id: 'visa', name: 'Visa', issuerId: 25, cvvLength: 3 } },
  {
    // 5031… is the sandbox's own Mastercard test range (test-cards page).
    pattern: /^(5[1-5]|5031|2(2[2-9]|[3-6]\d|7[01]|720))/,
    brand: { id: 'master', name: 'Mastercard', issuerId: 24, cvvLength: 3 },
  },
]

export function brandOf(cardNumber: string): Brand | null {
  return BRANDS.find((b) => b.pattern.test(cardNumber))?.brand ?? null
}

export function luhnValid(digits: string): boolean {
  let sum = 0
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i])
    if (i % 2 === 1) d = d * 2 > 9 ? d * 2 - 9 : d * 2
    sum += d
  }
  return sum % 10 === 0
}

export type CardOutcome = 'APRO' | 'OTHE' | 'CONT' | 'CALL' | 'FUND' | 'SECU' | 'EXPI' | 'FORM'

/** What the sandbox answers for each cardholder name (test-cards page). */
export const OUTCOMES: Record<CardOutcome, { status: string; statusDetail: string }> = {
  APRO: { status: 'approved', statusDetail: 'accredited' },
  OTHE: { status: 'rejected', statusDetail: 'cc_rejected_other_reason' },
  CONT: { status: 'in_process', statusDetail: 'pending_contingency' },
  CALL: { status: 'rejected', statusDetail: 'cc_rejected_call_for_authorize' },
  FUND: { status: 'rejected', statusDetail: 'cc_rejected_insufficient_amount' },
  SECU: { status: 'rejected', statusDetail: 'cc_rejected_bad_filled_security_code' },
  EXPI: { status: 'rejected', statusDetail: 'cc_rejected_bad_filled_date' },
  FORM: { status: 'rejected', statusDetail: 'cc_rejected_bad_filled_other' },
}

/** The outcome a cardholder name asks for; any other name is approved (an assumption). */
export function outcomeOfName(name: string): CardOutcome {
  const code = name.trim().toUpperCase().split(/\s+/)[0] as CardOutcome
  return code in OUTCOMES ? code : 'APRO'
}

// Field errors carry MercadoPago.js's codes ("Data entry errors" page).
const digitsOf = (value: unknown) => (value === undefined || value === null ? '' : String(value))

export function createCardToken(body: Record<string, any>, now: Date): CardToken {
  const number = digitsOf(body.card_number)
  if (!number) throw badRequest('205', 'parameter cardNumber can not be null/empty')
  const brand = brandOf(number)
  if (!/^\d{13,19}$/.test(number) || !luhnValid(number) || !brand) {
    throw badRequest('E301', 'invalid parameter cardNumber')
  }
  const month = Number(digitsOf(body.expiration_month))
  const year = Number(digitsOf(body.expiration_year))
  if (!body.expiration_month)
    throw badRequest('208', 'parameter expirationMonth can not be null/empty')
  if (!body.expiration_year)
    throw badRequest('209', 'parameter expirationYear can not be null/empty')
  if (!Number.isInteger(month) || month < 1 || month > 12) {
    throw badRequest('325', 'invalid parameter expirationMonth')
  }
  const thisMonth = now.getUTCFullYear() * 12 + now.getUTCMonth()
  if (!Number.isInteger(year) || year < 1000 || year * 12 + month - 1 < thisMonth) {
    throw badRequest('326', 'invalid parameter expirationYear')
  }
  const cvv = digitsOf(body.security_code)
  if (!cvv) throw badRequest('224', 'parameter securityCode can not be null/empty')
  if (cvv.length !== brand.cvvLength || !/^\d+$/.test(cvv)) {
    throw badRequest('E203', 'invalid parameter securityCode')
  }
  const holder = body.cardholder ?? {}
  const name = typeof holder.name === 'string' ? holder.name.trim() : ''
  if (!name) throw badRequest('221', 'parameter cardholderName can not be null/empty')
  const idType = holder.identification?.type
  const idNumber = digitsOf(holder.identification?.number)
  if (!idType) throw badRequest('212', 'parameter identificationType can not be null/empty')
  if (idType !== 'CPF' && idType !== 'CNPJ') {
    throw badRequest('322', 'invalid parameter identificationType')
  }
  if (!idNumber) throw badRequest('214', 'parameter identificationNumber can not be null/empty')
  if (!(idType === 'CPF' ? isValidCpf(idNumber) : isValidCnpj(idNumber))) {
    throw badRequest('324', 'invalid parameter identificationNumber')
  }
  return {
    id: randomBytes(16).toString('hex'),
    bin: number.slice(0, 8),
    lastFour: number.slice(-4),
    brand,
    expirationMonth: month,
    expirationYear: year,
    cardholder: { name, identification: { type: idType, number: idNumber } },
    createdAt: now,
    dueAt: new Date(now.getTime() + TOKEN_LIFETIME_MS),
    usedAt: null,
  }
}

/** The token, if it can still pay; the payment marks it used once it is accepted. */
export function usableToken(token: CardToken | undefined, now: Date): CardToken {
  if (!token) throw badRequest(2006, 'Card Token not found')
  if (token.usedAt) throw badRequest(3003, 'Invalid card_token_id', 'Card token already used')
  if (now >= token.dueAt) throw badRequest(3003, 'Invalid card_token_id', 'Card token expired')
  return token
}

export function tokenResource(token: CardToken, publicKey: string) {
  return {
    id: token.id,
    public_key: publicKey,
    card_id: null,
    luhn_validation: true,
    status: token.usedAt ? 'used' : 'active',
    date_used: token.usedAt ? mpDate(token.usedAt) : null,
    card_number_length: 16,
    date_created: mpDate(token.createdAt),
    first_six_digits: token.bin.slice(0, 6),
    last_four_digits: token.lastFour,
    security_code_length: token.brand.cvvLength,
    expiration_month: token.expirationMonth,
    expiration_year: token.expirationYear,
    date_last_updated: mpDate(token.usedAt ?? token.createdAt),
    date_due: mpDate(token.dueAt),
    live_mode: false,
    cardholder: token.cardholder,
  }
}

/** `GET /v1/payment_methods/search?bin=…`, trimmed to what a checkout reads. */
export function paymentMethodsForBin(bin: string) {
  const brand = /^\d{6,8}$/.test(bin) ? brandOf(bin) : null
  const results = brand
    ? [
        {
          id: brand.id,
          name: brand.name,
          payment_type_id: 'credit_card',
          status: 'active',
          issuer: { id: brand.issuerId, name: brand.name },
          settings: [
            {
              card_number: { length: brand.id === 'amex' ? 15 : 16, validation: 'standard' },
              security_code: { length: brand.cvvLength, card_location: 'back', mode: 'mandatory' },
            },
          ],
          additional_info_needed: [
            'cardholder_name',
            'cardholder_identification_type',
            'cardholder_identification_number',
          ],
          min_allowed_amount: 0.5,
          max_allowed_amount: 60000,
        },
      ]
    : []
  return { paging: { total: results.length, limit: 30, offset: 0 }, results }
}

export const IDENTIFICATION_TYPES = [
  { id: 'CPF', name: 'CPF', type: 'number', min_length: 11, max_length: 11 },
  { id: 'CNPJ', name: 'CNPJ', type: 'number', min_length: 14, max_length: 14 },
]

export function assertPublicKey(given: string | null, expected: string) {
  if (given !== expected) throw new ApiError(401, 'unauthorized', 'invalid public_key')
}
