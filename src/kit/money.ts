// Money is integer centavos inside. Rounding is decided here and only here.

export type Cents = number

/**
 * The largest amount the API takes anywhere (prices, coupon amounts, withdrawals):
 * R$ 99.999.999,99, what a boleto's 10-digit amount field holds. Running sums stay exact far
 * beyond it (see docs/ARCHITECTURE.md, "Amount ceiling").
 */
export const MAX_AMOUNT_CENTS: Cents = 9_999_999_999

/** BRL from the API (a JSON number, at most two decimals, at most the maximum) to centavos. */
export function toCents(brl: number): Cents {
  if (typeof brl !== 'number' || !Number.isFinite(brl) || brl < 0) {
    throw new RangeError('Amount must be a non-negative number')
  }
  const cents = Math.round(brl * 100)
  // Reject 10.001 but accept float noise such as 0.1 + 0.2.
  if (Math.abs(cents - brl * 100) > 1e-6 * Math.max(1, brl)) {
    throw new RangeError('Amount has more than two decimals')
  }
  if (cents > MAX_AMOUNT_CENTS) throw new RangeError('Amount is above the maximum')
  return cents
}

/** True when `brl` is a valid API amount (see toCents). */
export function isBrlAmount(brl: unknown): brl is number {
  if (typeof brl !== 'number') return false
  try {
    toCents(brl)
    return true
  } catch {
    return false
  }
}

/** Centavos to the API's JSON number in BRL. */
export function toBrl(cents: Cents): number {
  return cents / 100
}

/** "1234.5" style decimal for BR Code and boleto fields: two decimals, dot separator. */
export function formatDecimal(cents: Cents): string {
  const sign = cents < 0 ? '-' : ''
  const abs = Math.abs(cents)
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`
}

/** Display for buyers and creators: "R$ 1.234,56", and "-R$ 50,00" below zero (as pt-BR's Intl). */
export function formatBrl(cents: Cents): string {
  const sign = cents < 0 ? '-' : ''
  const abs = Math.abs(cents)
  const reais = Math.floor(abs / 100)
    .toString()
    .replace(/\B(?=(\d{3})+(?!\d))/g, '.')
  return `${sign}R$ ${reais},${String(abs % 100).padStart(2, '0')}`
}

/** Display of a BRL number as the API answers it, of any sign (a balance may be negative). */
export function formatBrlAmount(brl: number): string {
  return formatBrl(Math.round(brl * 100))
}

/** One of `count` interest-free installments, rounded up: they never add up to less than the price. */
export function installmentCents(total: Cents, count: number): Cents {
  if (!Number.isSafeInteger(total) || total < 0) throw new RangeError('total must be centavos')
  if (!Number.isInteger(count) || count < 1) throw new RangeError('count must be 1 or more')
  return Math.ceil(total / count)
}

/** Card installments: what the buyer pays in all, in how many parts, and the interest in it. */
export interface InstallmentPlan {
  count: number
  /** Each part, in order; they add up to `totalCents` exactly. */
  parts: Cents[]
  totalCents: Cents
  /** `totalCents` less the price: 0 when the seller pays the interest or for 1 installment. */
  interestCents: Cents
}

/**
 * How a card price is split in `count` installments. Without a rate (the seller pays the
 * interest) the buyer pays the price in equal parts, the remainder centavos on the first ones.
 * With a monthly rate in basis points (the buyer pays) each part is the Price table's
 * (French amortization) payment `price × i / (1 − (1 + i)^−n)`, rounded half up to the
 * centavo, and the total is n of them. One installment never has interest.
 */
export function installmentPlan(
  priceCents: Cents,
  count: number,
  monthlyRateBps: number | null,
): InstallmentPlan {
  if (!Number.isSafeInteger(priceCents) || priceCents < 0) {
    throw new RangeError('price must be centavos')
  }
  if (!Number.isInteger(count) || count < 1 || count > 12) {
    throw new RangeError('count must be 1..12')
  }
  if (monthlyRateBps !== null && (!Number.isInteger(monthlyRateBps) || monthlyRateBps < 0)) {
    throw new RangeError('rate must be non-negative basis points')
  }
  if (count === 1 || !monthlyRateBps) {
    const part = Math.floor(priceCents / count)
    const rest = priceCents - part * count
    // The remainder's centavos go one each on the first parts: no two parts differ by more
    // than 1 centavo, and the first (what the page shows) is installmentCents's rounding up.
    const parts = Array.from({ length: count }, (_, k) => part + (k < rest ? 1 : 0))
    return { count, parts, totalCents: priceCents, interestCents: 0 }
  }
  const i = monthlyRateBps / 10_000
  // Tiny prices round below an interest-free part: never charge less than the price.
  const part = Math.max(
    Math.round((priceCents * i) / (1 - (1 + i) ** -count)),
    Math.ceil(priceCents / count),
  )
  const totalCents = part * count
  return {
    count,
    parts: Array.from({ length: count }, () => part),
    totalCents,
    interestCents: totalCents - priceCents,
  }
}

/**
 * A share of an amount in basis points (1% = 100 bps), rounded half up to the centavo.
 * Integer arithmetic only: amount × bps / 10000 with the remainder compared to half.
 */
export function percentOf(amount: Cents, basisPoints: number): Cents {
  if (!Number.isSafeInteger(amount) || amount < 0) throw new RangeError('amount must be centavos')
  if (!Number.isInteger(basisPoints) || basisPoints < 0 || basisPoints > 10_000) {
    throw new RangeError('basis points must be 0..10000')
  }
  const product = BigInt(amount) * BigInt(basisPoints)
  const whole = product / 10_000n
  const rest = product % 10_000n
  return Number(rest * 2n >= 10_000n ? whole + 1n : whole)
}

/** Percent with up to two decimals (e.g. 12.5) to basis points (1250). */
export function percentToBasisPoints(percent: number): number {
  const bps = Math.round(percent * 100)
  if (Math.abs(bps - percent * 100) > 1e-6 || bps < 0 || bps > 10_000) {
    throw new RangeError('percent must be 0..100 with at most two decimals')
  }
  return bps
}

export function basisPointsToPercent(bps: number): number {
  return bps / 100
}

/** A price after a coupon: a percentage (rounded like every share) or a fixed amount off. */
export function discounted(
  price: Cents,
  coupon: { percentOffBps: number | null; amountOffCents: number | null },
): Cents {
  if (coupon.percentOffBps !== null) return price - percentOf(price, coupon.percentOffBps)
  return Math.max(0, price - (coupon.amountOffCents ?? 0))
}

/**
 * How one order's amount is shared (SPEC §8): the affiliate's commission is the percentage of
 * the amount, rounded half up; each co-producer's share is its percentage of what remains after
 * the commission, rounded half up; the creator keeps the rest. Splits summing to 100 % can
 * overshoot by rounding (two halves of 1 centavo), so a split never takes more than is left.
 */
export function splitSale(
  amount: Cents,
  commissionBps: number | null,
  splitBps: number[],
): { commission: Cents; splits: Cents[]; creator: Cents } {
  const commission = commissionBps === null ? 0 : percentOf(amount, commissionBps)
  const base = amount - commission
  let left = base
  const splits = splitBps.map((bps) => {
    const share = Math.min(percentOf(base, bps), left)
    left -= share
    return share
  })
  return { commission, splits, creator: left }
}
