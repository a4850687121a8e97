// Turns the running service's sandbox gateway into one that takes card data server-side
// (`cardEntry` 'card-data', as Asaas does), for tests of the checkout's card-data path before a
// real adapter is on. The card is tokenized by the sandbox's own test-card rules and charged by
// the real sandbox; what the checkout sent (never the card itself) is kept for assertions.
import {
  type CreateChargeInput,
  GatewayRefused,
  type PaymentGateway,
} from '../../src/modules/payments/gateway.ts'
import { tokenizeSandboxCard } from '../../src/modules/payments/gateways/sandbox.ts'

export interface CardDataGateway {
  /** The inputs the checkout charged with, the card data replaced by its last 4 digits. */
  charged: (Omit<CreateChargeInput, 'cardData'> & { cardLast4?: string })[]
  /** The next charge is refused with this reason and blame. */
  refuseNext(reason: string, blame: 'input' | 'gateway'): void
  restore(): void
}

export function useCardDataEntry(gateway: PaymentGateway, now: () => Date): CardDataGateway {
  const original = { cardEntry: gateway.cardEntry, createCharge: gateway.createCharge }
  const charged: CardDataGateway['charged'] = []
  let refusal: GatewayRefused | null = null
  const g = gateway as { -readonly [K in keyof PaymentGateway]: PaymentGateway[K] }
  g.cardEntry = { kind: 'card-data' }
  g.createCharge = async (input) => {
    const { cardData, ...rest } = input
    charged.push({ ...rest, ...(cardData ? { cardLast4: cardData.number.slice(-4) } : {}) })
    if (refusal) {
      const error = refusal
      refusal = null
      throw error
    }
    if (!cardData) return original.createCharge.call(gateway, input)
    const token = tokenizeSandboxCard(
      {
        number: cardData.number,
        expiry: `${cardData.expiryMonth}/${cardData.expiryYear.slice(-2)}`,
        cvv: cardData.cvv,
      },
      now(),
    )
    if (!token) throw new GatewayRefused('Cartão inválido', 'input')
    return original.createCharge.call(gateway, { ...rest, cardToken: token.token })
  }
  return {
    charged,
    refuseNext(reason, blame) {
      refusal = new GatewayRefused(reason, blame)
    },
    restore() {
      g.cardEntry = original.cardEntry
      g.createCharge = original.createCharge
    },
  }
}

export interface BrowserTokenGateway {
  /** The card tokens the checkout charged with, as the page sent them. */
  tokens: string[]
  restore(): void
}

/**
 * The sandbox gateway as a browser-tokenizing one (MercadoPago.js from `scriptUrl`), until the
 * Mercado Pago adapter is on main: the page's token is recorded, then the sandbox charges the
 * order with its approved test token.
 */
export function useBrowserTokenEntry(
  gateway: PaymentGateway,
  entry: { scriptUrl: string; publicKey: string },
): BrowserTokenGateway {
  const original = { cardEntry: gateway.cardEntry, createCharge: gateway.createCharge }
  const tokens: string[] = []
  const g = gateway as { -readonly [K in keyof PaymentGateway]: PaymentGateway[K] }
  g.cardEntry = { kind: 'browser-token', ...entry }
  g.createCharge = async (input) => {
    if (input.cardToken) tokens.push(input.cardToken)
    const cardToken = input.cardToken ? 'tok_approved' : undefined
    return original.createCharge.call(gateway, { ...input, cardToken })
  }
  return {
    tokens,
    restore() {
      g.cardEntry = original.cardEntry
      g.createCharge = original.createCharge
    },
  }
}
