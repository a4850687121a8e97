// A PIX key by type (SPEC §9): validated, normalized (so the same key typed with or without a
// mask compares equal) and masked for reads, the way bank apps show keys.

import type { PixKeyType } from '../../kit/db-schema.ts'
import {
  isValidCnpj,
  isValidCpf,
  normalizeBrazilianPhone,
  normalizeTaxId,
  onlyDigits,
} from '../../kit/documents.ts'

export const PIX_KEY_TYPES = ['cpf', 'cnpj', 'email', 'phone', 'random'] as const

const EMAIL = /^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/

const INVALID: Record<PixKeyType, string> = {
  cpf: 'Chave Pix inválida: CPF com dígitos verificadores incorretos',
  cnpj: 'Chave Pix inválida: CNPJ com dígitos verificadores incorretos',
  email: 'Chave Pix inválida: e-mail em formato incorreto',
  phone: 'Chave Pix inválida: use o celular no formato +55DDNNNNNNNNN',
  random: 'Chave Pix inválida: a chave aleatória é um UUID (8-4-4-4-12)',
}

/** The key in its stored form, or an error message (pt-BR) when it is not a key of that type. */
export function normalizePixKey(
  type: PixKeyType,
  raw: string,
): { key: string } | { error: string } {
  const text = raw.trim()
  const key = normalizedOrNull(type, text)
  return key && key.length <= 140 ? { key } : { error: INVALID[type] }
}

function normalizedOrNull(type: PixKeyType, text: string): string | null {
  switch (type) {
    case 'cpf':
      return isValidCpf(text) ? onlyDigits(text) : null
    case 'cnpj':
      return isValidCnpj(text) ? normalizeTaxId(text)!.value : null
    case 'email':
      return EMAIL.test(text) && text.length <= 77 ? text.toLowerCase() : null
    case 'phone':
      return normalizeBrazilianPhone(text)
    case 'random':
      return UUID.test(text.toLowerCase()) ? text.toLowerCase() : null
  }
}

/** The key as reads show it: enough to recognise, not enough to copy. */
export function maskPixKey(type: PixKeyType, key: string): string {
  switch (type) {
    case 'cpf': // as the Central Bank's DICT shows CPFs: the middle six digits
      return `***.${key.slice(3, 6)}.${key.slice(6, 9)}-**`
    case 'cnpj': // a company's root is public; the branch and check digits are hidden
      return `${key.slice(0, 2)}.${key.slice(2, 5)}.${key.slice(5, 8)}/****-**`
    case 'email': {
      const [local, domain] = key.split('@') as [string, string]
      return `${local.slice(0, 1)}***@${domain}`
    }
    case 'phone': // +55 DD and the last four digits
      return `${key.slice(0, 3)} ${key.slice(3, 5)} *****-${key.slice(-4)}`
    case 'random':
      return `${key.slice(0, 4)}****-****-****-****-********${key.slice(-4)}`
  }
}
