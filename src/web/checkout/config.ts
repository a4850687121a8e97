// What the checkout page hands its browser script (the #checkout-config JSON): shared by the
// server component that writes it and the browser module that reads it.

export interface CheckoutConfig {
  productId: string
  /** Labels made by the server, so money is formatted and rounded only by kit/money. */
  plans: { id: string; price: string; originalLabel: string; installments: string[] }[]
  coupon: string | null
  affiliateCode: string | null
  session: { id: string; token: string } | null
  tokenizeUrl: string | null
  cardEntry: { kind: 'test-token' | 'card-data' } | { kind: 'browser-token'; publicKey: string }
}
