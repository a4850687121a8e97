import { describe, expect, it } from 'vitest'
import {
  barcodeSvgDataUrl,
  buildBoleto,
  dueDateFactor,
  endOfDueDate,
  parseDigitableLine,
} from '../../../src/modules/payments/boleto.ts'

// Written from the FEBRABAN rules, independently of the implementation.
function referenceMod10(digits: string) {
  const sum = [...digits].reverse().reduce((acc, c, i) => {
    const p = Number(c) * (i % 2 === 0 ? 2 : 1)
    return acc + Math.floor(p / 10) + (p % 10)
  }, 0)
  return (10 - (sum % 10)) % 10
}
function referenceMod11(digits: string) {
  const weights = [2, 3, 4, 5, 6, 7, 8, 9]
  const sum = [...digits].reverse().reduce((acc, c, i) => acc + Number(c) * weights[i % 8]!, 0)
  const dv = 11 - (sum % 11)
  return [0, 10, 11].includes(dv) ? 1 : dv
}

describe('boleto', () => {
  it('due-date factor restarts at 1000 on 2025-02-22', () => {
    expect(dueDateFactor(new Date('2000-07-03T12:00:00Z'))).toBe('1000')
    expect(dueDateFactor(new Date('2025-02-21T12:00:00Z'))).toBe('9999')
    expect(dueDateFactor(new Date('2025-02-22T12:00:00Z'))).toBe('1000')
    expect(dueDateFactor(new Date('2026-01-01T12:00:00Z'))).toBe('1313')
  })

  it('accepts a published Banco do Brasil digitable line', () => {
    const parsed = parseDigitableLine('00190.00009 01234.567004 00000.001172 5 89790000010000')
    // bank+currency 0019, general DV 5, factor 8979, amount 0000010000, free field in three parts
    const barcode = ['0019', '5', '8979', '0000010000', '00000', '0123456700', '0000000117'].join(
      '',
    )
    expect(parsed).toEqual({ valid: true, barcode })
  })

  it('builds barcode and line with correct check digits, and they round-trip', () => {
    const b = buildBoleto({
      bankCode: '999',
      amountCents: 14_790,
      dueDate: new Date('2026-11-25T12:00:00Z'),
      freeField: '1234567890123456789012345',
    })
    expect(b.barcode).toHaveLength(44)
    expect(b.digitableLine).toHaveLength(47)
    expect(b.barcode.slice(5, 9)).toBe(dueDateFactor(new Date('2026-11-25T12:00:00Z')))
    expect(b.barcode.slice(9, 19)).toBe('0000014790')
    expect(Number(b.barcode[4])).toBe(referenceMod11(b.barcode.slice(0, 4) + b.barcode.slice(5)))
    const d = b.digitableLine
    expect(Number(d[9])).toBe(referenceMod10(d.slice(0, 9)))
    expect(Number(d[20])).toBe(referenceMod10(d.slice(10, 20)))
    expect(Number(d[31])).toBe(referenceMod10(d.slice(21, 31)))
    expect(parseDigitableLine(b.formattedLine)).toEqual({ valid: true, barcode: b.barcode })
  })

  it('any changed digit makes the line invalid', () => {
    const { digitableLine } = buildBoleto({
      bankCode: '341',
      amountCents: 100,
      dueDate: new Date('2026-12-01'),
      freeField: `${'0'.repeat(24)}7`,
    })
    for (let i = 0; i < 47; i++) {
      const changed =
        digitableLine.slice(0, i) +
        ((Number(digitableLine[i]) + 1) % 10) +
        digitableLine.slice(i + 1)
      expect(parseDigitableLine(changed).valid, `digit ${i}`).toBe(false)
    }
  })

  it('refuses what does not fit', () => {
    const base = {
      bankCode: '341',
      amountCents: 100,
      dueDate: new Date('2026-12-01'),
      freeField: '1'.repeat(25),
    }
    expect(() => buildBoleto({ ...base, bankCode: '34' })).toThrow()
    expect(() => buildBoleto({ ...base, freeField: '1' })).toThrow()
    expect(() => buildBoleto({ ...base, amountCents: 10_000_000_000 })).toThrow()
  })

  it('draws an ITF barcode and ends on the due day in Brasília time', () => {
    expect(barcodeSvgDataUrl('0'.repeat(44))).toMatch(/^data:image\/svg\+xml;base64,/)
    expect(endOfDueDate('2026-11-25').toISOString()).toBe('2026-11-26T03:00:00.000Z')
  })
})
