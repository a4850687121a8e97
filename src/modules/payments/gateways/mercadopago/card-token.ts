// What the checkout page sends as `card_token` when Mercado Pago is on. MercadoPago.js gives the
// page three things a payment needs: the token (`mp.createCardToken`), and the card's
// `payment_method_id` and `issuer_id` (`mp.getPaymentMethods({ bin })`). The port carries one
// string, so the page joins them: `<token>:<payment_method_id>[:<issuer_id>]`, e.g.
// `ff8080814c11e237014c1ff593b57b4d:master:24`. None of it is card data (PCI SAQ A).

export interface MpCardToken {
  token: string
  paymentMethodId: string
  issuerId: string | null
}

// Tokens are hex (32 chars in practice); method ids are short lower-case words (visa, master,
// elo, amex, debvisa…); issuer ids are numbers.
const FORMAT = /^([A-Za-z0-9]{8,64}):([a-z][a-z0-9_]{1,30})(?::(\d{1,12}))?$/

export function parseCardToken(value: string): MpCardToken | null {
  const match = FORMAT.exec(value.trim())
  if (!match) return null
  return { token: match[1]!, paymentMethodId: match[2]!, issuerId: match[3] ?? null }
}

export function formatCardToken(card: MpCardToken): string {
  return [card.token, card.paymentMethodId, card.issuerId].filter(Boolean).join(':')
}
