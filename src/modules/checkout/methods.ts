// The payment methods a checkout offers: what the product allows, less what the gateway cannot
// carry out (a subscription by card needs a card the gateway keeps for the renewals).
import type { PaymentMethod } from '../../kit/db-schema.ts'
import { BadRequest } from '../../kit/errors.ts'
import type { GatewayCapabilities } from '../payments/gateway.ts'

type Sellable = { billing: 'one_time' | 'recurring'; payment_methods: PaymentMethod[] }

export const NOT_ACCEPTED = 'Forma de pagamento não aceita para este produto'
export const NO_CARD_SUBSCRIPTIONS =
  'Assinaturas não podem ser pagas com cartão no momento: escolha Pix ou boleto'

const cardUnkept = (product: Sellable, gateway: GatewayCapabilities) =>
  product.billing === 'recurring' && !gateway.savesCards

export function methodsOffered(product: Sellable, gateway: GatewayCapabilities): PaymentMethod[] {
  const unkept = cardUnkept(product, gateway)
  return product.payment_methods.filter((m) => !(m === 'card' && unkept))
}

/** Refuses, before any order exists, a method this checkout does not offer. */
export function assertMethodOffered(
  product: Sellable,
  gateway: GatewayCapabilities,
  method: PaymentMethod,
) {
  if (!product.payment_methods.includes(method)) throw new BadRequest(NOT_ACCEPTED)
  if (method === 'card' && cardUnkept(product, gateway)) {
    throw new BadRequest(NO_CARD_SUBSCRIPTIONS)
  }
}
