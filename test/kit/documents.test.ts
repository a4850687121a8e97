import { describe, expect, it } from 'vitest'
import {
  isValidCnpj,
  isValidCpf,
  normalizeBrazilianPhone,
  normalizeTaxId,
} from '../../src/kit/documents.ts'

describe('CPF', () => {
  it('accepts valid numbers, masked or not', () => {
    expect(isValidCpf('529.982.247-25')).toBe(true)
    expect(isValidCpf('52998224725')).toBe(true)
  })
  it('refuses wrong check digits, repeated digits and junk', () => {
    expect(isValidCpf('529.982.247-24')).toBe(false)
    expect(isValidCpf('111.111.111-11')).toBe(false)
    expect(isValidCpf('5299822472')).toBe(false)
    expect(isValidCpf('abc')).toBe(false)
  })
})

describe('CNPJ', () => {
  it('accepts numeric CNPJs', () => {
    expect(isValidCnpj('11.222.333/0001-81')).toBe(true)
    expect(isValidCnpj('11222333000181')).toBe(true)
    expect(isValidCnpj('11.222.333/0001-80')).toBe(false)
    expect(isValidCnpj('00000000000000')).toBe(false)
  })
  it('accepts the alphanumeric CNPJ (Receita Federal example 12.ABC.345/01DE-35)', () => {
    expect(isValidCnpj('12.ABC.345/01DE-35')).toBe(true)
    expect(isValidCnpj('12abc34501de35')).toBe(true)
    expect(isValidCnpj('12.ABC.345/01DE-36')).toBe(false)
  })
  it('normalizes to kind and canonical value', () => {
    expect(normalizeTaxId('529.982.247-25')).toEqual({ kind: 'cpf', value: '52998224725' })
    expect(normalizeTaxId('12.abc.345/01de-35')).toEqual({ kind: 'cnpj', value: '12ABC34501DE35' })
    expect(normalizeTaxId('123')).toBeNull()
  })
})

describe('phones', () => {
  it('normalizes Brazilian mobiles and landlines to E.164', () => {
    expect(normalizeBrazilianPhone('(11) 98765-4321')).toBe('+5511987654321')
    expect(normalizeBrazilianPhone('+55 11 98765-4321')).toBe('+5511987654321')
    expect(normalizeBrazilianPhone('5511987654321')).toBe('+5511987654321')
    expect(normalizeBrazilianPhone('(21) 3456-7890')).toBe('+552134567890')
  })
  it('refuses what cannot be a Brazilian number', () => {
    expect(normalizeBrazilianPhone('123')).toBeNull()
    expect(normalizeBrazilianPhone('(01) 98765-4321')).toBeNull()
    expect(normalizeBrazilianPhone('(11) 88765-4321')).toBeNull()
    expect(normalizeBrazilianPhone('(11) 9876-54321x')).toBeNull()
  })
})
