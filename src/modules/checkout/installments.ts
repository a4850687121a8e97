// Card installments at checkout (SPEC §4): how many a product allows and what they cost. The
// amounts come from kit/money's installmentPlan, the one place they are computed, so the page's
// labels and the order's amount can never disagree.
import type { DB } from '../../kit/db-schema.ts'
import { type InstallmentPlan, installmentPlan } from '../../kit/money.ts'

type Product = Pick<DB['products'], 'billing' | 'installment_interest' | 'max_installments'>

/**
 * The buyer's cost of paying `priceCents` in `count` installments of this product, at the
 * platform's monthly rate (`config.cardInstallmentInterestBps`) when the buyer pays interest.
 */
export function installmentsOf(
  product: Product,
  priceCents: number,
  count: number,
  rateBps: number,
) {
  return installmentPlan(
    priceCents,
    count,
    product.installment_interest === 'buyer' ? rateBps : null,
  )
}

/** Every choice the product offers, 1 to its maximum. */
export function installmentChoices(
  product: Product,
  priceCents: number,
  rateBps: number,
): InstallmentPlan[] {
  return Array.from({ length: product.max_installments }, (_, i) =>
    installmentsOf(product, priceCents, i + 1, rateBps),
  )
}
