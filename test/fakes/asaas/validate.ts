// Field rules of the requests. Sources are in docs/gateways/asaas.md; the rules marked there as
// assumptions are the ones the docs do not state.
import { isIP } from 'node:net'
import { isValidCnpj, isValidCpf, onlyDigits } from '../../../src/kit/documents.ts'
import { formatBrl, isBrlAmount, toCents } from '../../../src/kit/money.ts'
import type { Problems } from './errors.ts'
import { isCalendarDay } from './format.ts'

/** A present field: neither absent nor JSON null. */
export function given(value: unknown): boolean {
  return value !== undefined && value !== null
}

function text(value: unknown): string | null {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : null
}

/** A BRL amount (JSON number, > 0, at most two decimals) in centavos, or null after a problem. */
export function readAmount(
  problems: Problems,
  raw: unknown,
  field: string,
  minimumCents = 1,
): number | null {
  if (!given(raw)) {
    problems.add(`invalid_${field}`, `O campo ${field} deve ser informado.`)
    return null
  }
  if (!isBrlAmount(raw) || raw <= 0) {
    problems.add(
      `invalid_${field}`,
      `O campo ${field} deve ser um número positivo com no máximo duas casas decimais.`,
    )
    return null
  }
  const cents = toCents(raw)
  if (cents < minimumCents) {
    problems.add(`invalid_${field}`, `O valor mínimo permitido é ${formatBrl(minimumCents)}.`)
    return null
  }
  return cents
}

/** `dueDate`: a calendar day, not before today in Brasília. */
export function readDueDate(problems: Problems, raw: unknown, today: string): string | null {
  if (!given(raw)) {
    problems.add('invalid_dueDate', 'O campo dueDate deve ser informado.')
    return null
  }
  if (!isCalendarDay(raw)) {
    problems.add('invalid_dueDate', 'A data de vencimento informada é inválida.')
    return null
  }
  if (raw < today) {
    problems.add('invalid_dueDate', 'A data de vencimento não pode ser inferior à hoje.')
    return null
  }
  return raw
}

/** A valid CPF or CNPJ, punctuation allowed; stored as digits. */
export function readCpfCnpj(problems: Problems, raw: unknown, code: string): string | null {
  if (typeof raw === 'string' && (isValidCpf(raw) || isValidCnpj(raw))) return onlyDigits(raw)
  problems.add(code, 'O CPF/CNPJ informado é inválido.')
  return null
}

export function readRequiredText(
  problems: Problems,
  raw: unknown,
  field: string,
  code = `invalid_${field}`,
): string | null {
  const value = text(raw)
  if (value === null) problems.add(code, `O campo ${field} deve ser informado.`)
  return value
}

export function readRemoteIp(problems: Problems, raw: unknown): string | null {
  if (typeof raw === 'string' && isIP(raw) !== 0) return raw
  problems.add('invalid_remoteIp', 'O campo remoteIp deve ser informado com um IP válido.')
  return null
}

export interface CardInput {
  holderName: string
  number: string
  expiryMonth: string
  expiryYear: string
  ccv: string
}

/** `creditCard`: the docs require every field; the number is not Luhn-checked (4444 4444 4444
 * 4444 is the sandbox's approved card and fails Luhn). */
export function readCard(problems: Problems, raw: unknown, today: string): CardInput | null {
  const bad = (description: string) => {
    problems.add('invalid_creditCard', description)
    return null
  }
  if (typeof raw !== 'object' || raw === null) return bad('O campo creditCard deve ser informado.')
  const card = raw as Record<string, unknown>
  const holderName = text(card.holderName)
  const number = typeof card.number === 'string' ? card.number.replace(/\s/g, '') : ''
  const { expiryMonth, expiryYear, ccv } = card
  if (holderName === null) return bad('O nome impresso no cartão deve ser informado.')
  if (!/^\d{13,19}$/.test(number)) return bad('O número do cartão de crédito é inválido.')
  if (typeof expiryMonth !== 'string' || !/^(0[1-9]|1[0-2])$/.test(expiryMonth))
    return bad('O mês de expiração deve ter dois dígitos (01 a 12).')
  if (typeof expiryYear !== 'string' || !/^\d{4}$/.test(expiryYear))
    return bad('O ano de expiração deve ter quatro dígitos.')
  if (`${expiryYear}-${expiryMonth}` < today.slice(0, 7)) return bad('O cartão está expirado.')
  if (typeof ccv !== 'string' || !/^\d{3,4}$/.test(ccv))
    return bad('O código de segurança é inválido.')
  return { holderName, number, expiryMonth, expiryYear, ccv }
}

/** `creditCardHolderInfo`: name, email, cpfCnpj, postalCode, addressNumber, phone required. */
export function readCardHolder(problems: Problems, raw: unknown): boolean {
  const code = 'invalid_creditCardHolderInfo'
  if (typeof raw !== 'object' || raw === null) {
    problems.add(code, 'O campo creditCardHolderInfo deve ser informado.')
    return false
  }
  const holder = raw as Record<string, unknown>
  const before = problems.list.length
  for (const field of ['name', 'addressNumber'])
    readRequiredText(problems, holder[field], field, code)
  if (typeof holder.email !== 'string' || !/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(holder.email))
    problems.add(code, 'O e-mail do titular do cartão é inválido.')
  readCpfCnpj(problems, holder.cpfCnpj, code)
  if (typeof holder.postalCode !== 'string' || onlyDigits(holder.postalCode).length !== 8)
    problems.add(code, 'O CEP do titular do cartão é inválido.')
  if (typeof holder.phone !== 'string' || !/^\d{10,11}$/.test(onlyDigits(holder.phone)))
    problems.add(code, 'O telefone do titular do cartão é inválido.')
  return problems.list.length === before
}

export type PixKeyType = 'CPF' | 'CNPJ' | 'EMAIL' | 'PHONE' | 'EVP'

const PIX_KEY_RULES: Record<PixKeyType, (key: string) => boolean> = {
  // CPF and CNPJ keys go without punctuation (docs: transfer to a Pix key).
  CPF: (key) => /^\d{11}$/.test(key) && isValidCpf(key),
  CNPJ: (key) => /^\d{14}$/.test(key) && isValidCnpj(key),
  EMAIL: (key) => /^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(key) && key.length <= 77,
  // Phone keys carry the area code: 11 digits, optionally with the +55 country code.
  PHONE: (key) => /^(\+55)?\d{11}$/.test(key),
  EVP: (key) => /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(key),
}

export function readPixKey(
  problems: Problems,
  key: unknown,
  type: unknown,
): { key: string; type: PixKeyType } | null {
  if (typeof type !== 'string' || !(type in PIX_KEY_RULES)) {
    problems.add(
      'invalid_pixAddressKeyType',
      'O tipo da chave Pix deve ser CPF, CNPJ, EMAIL, PHONE ou EVP.',
    )
    return null
  }
  const keyType = type as PixKeyType
  if (typeof key !== 'string' || !PIX_KEY_RULES[keyType](key)) {
    problems.add(
      'invalid_pixAddressKey',
      `A chave Pix informada não é uma chave ${keyType} válida.`,
    )
    return null
  }
  return { key, type: keyType }
}
