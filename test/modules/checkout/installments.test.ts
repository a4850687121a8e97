import { describe, expect, it } from 'vitest'
import { loadConfig } from '../../../src/config.ts'
import { installmentChoices } from '../../../src/modules/checkout/installments.ts'

const rateOf = (value?: string) =>
  loadConfig(value === undefined ? {} : { CARD_INSTALLMENT_INTEREST: value })
    .cardInstallmentInterestBps

describe('checkout installments', () => {
  it('reads CARD_INSTALLMENT_INTEREST as a monthly percent, 2.99 by default', () => {
    expect(rateOf(undefined)).toBe(299)
    expect(rateOf('')).toBe(299)
    expect(rateOf('1.5')).toBe(150)
    expect(rateOf('2,49')).toBe(249)
    expect(rateOf('0')).toBe(0)
    for (const bad of ['abc', '2.999', '-1', '101', '1e2']) {
      expect(() => rateOf(bad), bad).toThrow('CARD_INSTALLMENT_INTEREST')
    }
  })

  it("offers 1 to the product's maximum, with interest only when the buyer pays it", () => {
    const seller = installmentChoices(
      { billing: 'one_time', max_installments: 4, installment_interest: 'seller' },
      10_000,
      299,
    )
    expect(seller.map((p) => p.totalCents)).toEqual([10_000, 10_000, 10_000, 10_000])
    const buyer = installmentChoices(
      { billing: 'one_time', max_installments: 3, installment_interest: 'buyer' },
      10_000,
      299,
    )
    expect(buyer.map((p) => p.totalCents)).toEqual([10_000, 10_450, 10_605])
  })
})
