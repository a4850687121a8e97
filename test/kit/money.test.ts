import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  formatBrl,
  formatBrlAmount,
  formatDecimal,
  installmentCents,
  installmentPlan,
  MAX_AMOUNT_CENTS,
  percentOf,
  percentToBasisPoints,
  splitSale,
  toBrl,
  toCents,
} from '../../src/kit/money.ts'

describe('money', () => {
  it('converts BRL numbers to integer centavos and back', () => {
    expect(toCents(97.9)).toBe(9790)
    expect(toCents(0.1 + 0.2)).toBe(30)
    expect(toCents(1234567.89)).toBe(123456789)
    expect(toBrl(9790)).toBe(97.9)
  })

  it('refuses more than two decimals, negatives and non-numbers', () => {
    expect(() => toCents(10.001)).toThrow(/two decimals/)
    expect(() => toCents(-1)).toThrow()
    expect(() => toCents(Number.NaN)).toThrow()
    expect(() => toCents(Number.POSITIVE_INFINITY)).toThrow()
  })

  it('takes amounts up to R$ 99.999.999,99, what a boleto holds', () => {
    expect(toCents(99_999_999.99)).toBe(MAX_AMOUNT_CENTS)
    expect(() => toCents(100_000_000)).toThrow(/maximum/)
    expect(() => toCents(90_071_992_547_409.91)).toThrow(/maximum/)
  })

  it('rounds shares half up to the centavo with integer arithmetic', () => {
    expect(percentOf(1000, 1250)).toBe(125) // 12.5% of R$ 10,00
    expect(percentOf(999, 5000)).toBe(500) // 499.5 → 500 (half up)
    expect(percentOf(997, 3333)).toBe(332) // 332.30 → 332
    expect(percentOf(1, 5000)).toBe(1) // 0.5 → 1
    expect(percentOf(1, 4999)).toBe(0)
    expect(percentOf(9790, 0)).toBe(0)
    expect(percentOf(9790, 10_000)).toBe(9790)
    expect(percentOf(Number.MAX_SAFE_INTEGER, 10_000)).toBe(Number.MAX_SAFE_INTEGER)
  })

  it('parts of a split never exceed the whole', () => {
    for (let amount = 0; amount < 3000; amount += 7) {
      const commission = percentOf(amount, 3333)
      const coproducer = percentOf(amount - commission, 5050)
      expect(commission + coproducer).toBeLessThanOrEqual(amount)
    }
  })

  it('rounds installments up, so n of them never add up to less than the price', () => {
    expect(installmentCents(10_000, 3)).toBe(3334)
    expect(installmentCents(9790, 1)).toBe(9790)
    expect(installmentCents(1200, 12)).toBe(100)
    for (let n = 1; n <= 12; n++) expect(installmentCents(9999, n) * n).toBeGreaterThanOrEqual(9999)
    expect(() => installmentCents(100, 0)).toThrow(RangeError)
  })

  it('turns percents into basis points', () => {
    expect(percentToBasisPoints(12.5)).toBe(1250)
    expect(percentToBasisPoints(100)).toBe(10_000)
    expect(() => percentToBasisPoints(12.345)).toThrow()
    expect(() => percentToBasisPoints(101)).toThrow()
  })

  it('formats for people and for payment codes', () => {
    expect(formatBrl(123456)).toBe('R$ 1.234,56')
    expect(formatBrl(5)).toBe('R$ 0,05')
    expect(formatDecimal(10000)).toBe('100.00')
    expect(formatDecimal(9790)).toBe('97.90')
  })

  it('formats negative amounts (a balance after a chargeback) the way pt-BR does', () => {
    expect(formatBrl(-5000)).toBe('-R$ 50,00')
    expect(formatBrl(-1)).toBe('-R$ 0,01')
    expect(formatBrlAmount(-1234.5)).toBe('-R$ 1.234,50')
    expect(formatBrlAmount(0.1 + 0.2)).toBe('R$ 0,30')
    expect(formatBrlAmount(-0)).toBe('R$ 0,00')
    const intl = new Intl.NumberFormat('pt-BR', { style: 'currency', currency: 'BRL' })
    expect(formatBrl(-123456)).toBe(intl.format(-1234.56).replace(/\s/g, ' '))
  })
})

describe('splitSale (SPEC §8 rounding)', () => {
  it('commission of the amount, splits of the rest, creator keeps the remainder', () => {
    // R$ 97,90 with 12.5 % commission and a 30 % co-producer
    // commission = 12.2375 → 12.24; base = 85.66; split = 25.698 → 25.70; creator = 59.96
    expect(splitSale(9790, 1250, [3000])).toEqual({
      commission: 1224,
      splits: [2570],
      creator: 5996,
    })
  })

  it('rounds each part half up and never lets the parts exceed the amount', () => {
    expect(splitSale(1, null, [5000, 5000])).toEqual({ commission: 0, splits: [1, 0], creator: 0 })
    expect(splitSale(3, 5000, [])).toEqual({ commission: 2, splits: [], creator: 1 })
    expect(splitSale(0, 1000, [2000])).toEqual({ commission: 0, splits: [0], creator: 0 })
    for (const amount of [1, 7, 99, 101, 9999, 123457]) {
      for (const c of [null, 1, 3333, 5000, 10000]) {
        const parts = splitSale(amount, c, [3333, 3333, 3334])
        const sum = parts.commission + parts.splits.reduce((a, b) => a + b, 0) + parts.creator
        expect(sum).toBe(amount)
        expect(parts.creator).toBeGreaterThanOrEqual(0)
      }
    }
  })
})

describe('installment plans', () => {
  it('splits the price in equal parts when the seller pays the interest', () => {
    expect(installmentPlan(10_000, 3, null)).toEqual({
      count: 3,
      parts: [3334, 3333, 3333],
      totalCents: 10_000,
      interestCents: 0,
    })
    expect(installmentPlan(9790, 1, 299).parts).toEqual([9790])
    // 39.90 in 12x: six parts of 3.33 and six of 3.32; the first is installmentCents's.
    const plan = installmentPlan(3990, 12, null)
    expect(plan.parts.filter((p) => p === 333)).toHaveLength(6)
    expect(plan.parts[0]).toBe(installmentCents(3990, 12))
  })

  it('follows the Price table when the buyer pays', () => {
    // 100.00 in 3x at 2.99 % a month: 100 × 0.0299 / (1 − 1.0299^−3) = 35.351… → 35.35.
    expect(installmentPlan(10_000, 3, 299)).toEqual({
      count: 3,
      parts: [3535, 3535, 3535],
      totalCents: 10_605,
      interestCents: 605,
    })
    // 1 000.00 in 12x at 1 %: the textbook payment 88.85.
    expect(installmentPlan(100_000, 12, 100).parts[0]).toBe(8885)
  })

  it('always adds up to the total, never below the price, and 1 installment has no interest', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: MAX_AMOUNT_CENTS }),
        fc.integer({ min: 1, max: 12 }),
        fc.option(fc.integer({ min: 0, max: 2000 }), { nil: null }),
        (price, count, rate) => {
          const plan = installmentPlan(price, count, rate)
          expect(plan.parts).toHaveLength(count)
          expect(plan.parts.reduce((a, b) => a + b, 0)).toBe(plan.totalCents)
          expect(plan.totalCents - price).toBe(plan.interestCents)
          expect(plan.interestCents).toBeGreaterThanOrEqual(0)
          if (count === 1 || !rate) {
            expect(plan.interestCents).toBe(0)
            expect(plan.parts[0]).toBe(installmentCents(price, count))
          }
          expect(Math.max(...plan.parts) - Math.min(...plan.parts)).toBeLessThanOrEqual(
            rate ? 0 : 1,
          )
        },
      ),
    )
  })

  it('refuses what is not a plan', () => {
    expect(() => installmentPlan(100, 0, null)).toThrow(RangeError)
    expect(() => installmentPlan(100, 13, null)).toThrow(RangeError)
    expect(() => installmentPlan(-1, 2, null)).toThrow(RangeError)
    expect(() => installmentPlan(100, 2, -5)).toThrow(RangeError)
  })
})
