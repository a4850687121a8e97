// The PIX key masks the dashboard applies as the creator types (balance/pix-key-format.ts), and
// that what they produce is what the API accepts as the same key.
import { describe, expect, it } from 'vitest'
import { normalizePixKey } from '../../src/modules/payouts/pix-key.ts'
import { maskedPixKeyInput } from '../../src/web/dashboard/balance/pix-key-format.ts'

describe('PIX key input masks', () => {
  it('lays out a CPF as it is typed, digit by digit, and drops anything else', () => {
    expect(maskedPixKeyInput('cpf', '529')).toBe('529')
    expect(maskedPixKeyInput('cpf', '5299')).toBe('529.9')
    expect(maskedPixKeyInput('cpf', '529982247257777')).toBe('529.982.247-25')
    expect(maskedPixKeyInput('cpf', 'a5b2-9')).toBe('529')
  })

  it('keeps the letters of an alphanumeric CNPJ, upper-cased', () => {
    expect(maskedPixKeyInput('cnpj', '11222333000181')).toBe('11.222.333/0001-81')
    expect(maskedPixKeyInput('cnpj', '12abc34501de35')).toBe('12.ABC.345/01DE-35')
  })

  it('masks a mobile or landline number with its DDD, dropping a typed +55', () => {
    expect(maskedPixKeyInput('phone', '11987654321')).toBe('(11) 98765-4321')
    expect(maskedPixKeyInput('phone', '+55 11 98765-4321')).toBe('(11) 98765-4321')
    expect(maskedPixKeyInput('phone', '1133334444')).toBe('(11) 3333-4444')
  })

  it('leaves e-mail and random keys as typed', () => {
    expect(maskedPixKeyInput('email', 'Ana@Example.com')).toBe('Ana@Example.com')
    expect(maskedPixKeyInput('random', 'ABC-1')).toBe('ABC-1')
  })

  it('produces keys the API takes as valid', () => {
    expect(normalizePixKey('cpf', maskedPixKeyInput('cpf', '52998224725'))).toEqual({
      key: '52998224725',
    })
    expect(normalizePixKey('cnpj', maskedPixKeyInput('cnpj', '11222333000181'))).toEqual({
      key: '11222333000181',
    })
    expect(normalizePixKey('phone', maskedPixKeyInput('phone', '11987654321'))).toEqual({
      key: '+5511987654321',
    })
  })
})
