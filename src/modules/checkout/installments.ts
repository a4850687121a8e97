// Card installments at checkout (SPEC §4): how many a product allows and what they cost. The
// amounts come from kit/money's installmentPlan, the one place they are computed, so the page's
// labels and the order's amount can never disagree.
import type { DB } from '../../kit/db-schema.ts'
import { type InstallmentPlan, installmentPlan, percentToBasisPoints } from '../../kit/money.ts'

type Product = Pick<DB['products'], 'billing' | 'installment_interest' | 'max_installments'>

const DEFAULT_RATE = '2.99'

/**
 * CARD_INSTALLMENT_INTEREST: the monthly rate (percent, up to two decimals) a buyer pays when
 * the product passes the interest on. Read once at start-up; a bad value stops it, named.
 */
export function installmentRateBps(value = process.env.CARD_INSTALLMENT_INTEREST): number {
  const text = value?.trim() || DEFAULT_RATE
  const percent = /^\d{1,3}([.,]\d{1,2})?$/.test(text) ? Number(text.replace(',', '.')) : Number.NaN
  try {
    return percentToBasisPoints(percent)
  } catch {
    throw new Error(
      `CARD_INSTALLMENT_INTEREST must be a monthly percent from 0 to 100, e.g. ${DEFAULT_RATE}`,
    )
  }
}

const RATE_BPS = installmentRateBps()

/** The buyer's cost of paying `priceCents` in `count` installments of this product. */
export function installmentsOf(product: Product, priceCents: number, count: number) {
  return installmentPlan(
    priceCents,
    count,
    product.installment_interest === 'buyer' ? RATE_BPS : null,
  )
}

/** Every choice the product offers, 1 to its maximum. */
export function installmentChoices(product: Product, priceCents: number): InstallmentPlan[] {
  return Array.from({ length: product.max_installments }, (_, i) =>
    installmentsOf(product, priceCents, i + 1),
  )
}
