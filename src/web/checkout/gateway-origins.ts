// Where a browser-tokenizing gateway's script comes from and whom it calls, for the checkout
// page's CSP. MercadoPago.js is served by sdk.mercadopago.com and posts the card to
// api.mercadopago.com (`POST /v1/card_tokens`, docs/gateways/mercadopago.md); a stand-in (the
// tests' fake) serves the script and answers its calls from one origin.
import type { PageOrigins } from '../../kit/http/security-headers.ts'

const APIS_OF_SCRIPT: Record<string, string[]> = {
  'https://sdk.mercadopago.com': ['https://api.mercadopago.com'],
}

export function browserTokenOrigins(scriptUrl: string): PageOrigins {
  const origin = new URL(scriptUrl).origin
  return { script: [origin], connect: [origin, ...(APIS_OF_SCRIPT[origin] ?? [])] }
}
