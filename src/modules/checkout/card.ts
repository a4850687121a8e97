// Card data typed by the buyer, for gateways that take it server-side (`cardEntry` 'card-data',
// Asaas). Checked here so an obvious typo is a clear 400 before any gateway call; then handed
// to the gateway once. Never stored, never logged (the request logger does not log bodies).
import { onlyDigits } from '../../kit/documents.ts'
import { BadRequest } from '../../kit/errors.ts'
import type { CardData } from '../payments/gateway.ts'
import type { CreateCheckoutInput } from './schema.ts'

/** The Luhn check digit every card number carries. */
export function luhnValid(digits: string): boolean {
  let sum = 0
  for (let i = 0; i < digits.length; i++) {
    let digit = Number(digits[digits.length - 1 - i])
    if (i % 2 === 1) digit = digit * 2 > 9 ? digit * 2 - 9 : digit * 2
    sum += digit
  }
  return sum % 10 === 0
}

type CardInput = NonNullable<CreateCheckoutInput['card']>

/** The card as the port carries it, or a 400 saying what to fix. */
export function cardDataOf(card: CardInput, now: Date): CardData {
  const number = onlyDigits(card.number)
  if (number.length < 13 || number.length > 19 || !luhnValid(number)) {
    throw new BadRequest('Número do cartão inválido')
  }
  const month = Number(card.expiry_month)
  const year =
    card.expiry_year.length === 2 ? 2000 + Number(card.expiry_year) : Number(card.expiry_year)
  // Valid through the last day of its month.
  if (Date.UTC(year, month, 1) <= now.getTime()) throw new BadRequest('Cartão vencido')
  return {
    holderName: card.holder_name,
    number,
    expiryMonth: String(month).padStart(2, '0'),
    expiryYear: String(year),
    cvv: card.cvv,
  }
}

/** A CEP: 8 digits, masked or not. */
export function postalCodeOf(text: string): string {
  const digits = onlyDigits(text)
  if (digits.length !== 8 || text.replace(/[\d\s.-]/g, '') !== '')
    throw new BadRequest('CEP inválido')
  return digits
}
