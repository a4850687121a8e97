// What the buyer types for the gateway beyond the order: card data, for gateways that take it
// server-side (`cardEntry` 'card-data', Asaas), and an address, for gateways that register
// boletos with it (Mercado Pago). Checked here so an obvious typo is a clear 400 before any
// gateway call; then handed to the gateway once. Card data is never stored nor logged (the
// request logger does not log bodies).
import { luhnValid, onlyDigits } from '../../kit/documents.ts'
import { BadRequest } from '../../kit/errors.ts'
import type { CardData } from '../payments/gateway.ts'
import type { CreateCheckoutInput } from './schema.ts'

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

const UFS = new Set(
  'AC AL AP AM BA CE DF ES GO MA MT MS MG PA PB PR PE PI RJ RN RS RO RR SC SP SE TO'.split(' '),
)

type AddressInput = NonNullable<CreateCheckoutInput['address']>

/** The buyer's address for a boleto (Mercado Pago registers boletos with it), or a 400. */
export function buyerAddressOf(address: AddressInput) {
  const state = address.state.toUpperCase()
  if (!UFS.has(state)) throw new BadRequest('UF inválida')
  return {
    postalCode: postalCodeOf(address.postal_code),
    street: address.street,
    number: address.number,
    neighborhood: address.neighborhood,
    city: address.city,
    state,
  }
}
