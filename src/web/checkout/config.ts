// What the checkout page hands its browser script (the #checkout-config JSON): shared by the
// server component that writes it and the browser module that reads it.

/** One plan's labels, made by the server, so money is formatted and rounded only by kit/money. */
export interface PlanLabels {
  id: string
  price: string
  originalLabel: string
  installments: string[]
}

export interface CheckoutConfig {
  productId: string
  /** Where the coupon field asks for the prices with a coupon (`GET …/cupom?code=`). */
  couponUrl: string
  plans: PlanLabels[]
  coupon: string | null
  affiliateCode: string | null
  session: { id: string; token: string } | null
  tokenizeUrl: string | null
  cardEntry: { kind: 'test-token' | 'card-data' } | { kind: 'browser-token'; publicKey: string }
}

/** The answer of `GET /checkout/<slug>/cupom?code=`: the plans' labels with that coupon. */
export interface CouponQuote {
  /** The applied code (upper case), or null when it is invalid or empty. */
  coupon: string | null
  /** What the page says beside the field: "Cupom X aplicado" or "Cupom inválido". */
  message: string
  plans: PlanLabels[]
}
