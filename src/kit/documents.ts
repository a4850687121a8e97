// Brazilian tax ids (CPF, CNPJ including the alphanumeric CNPJ of July 2026) and phone numbers.

export function onlyDigits(text: string): string {
  return text.replace(/\D/g, '')
}

/** Check digit of the mod-11 scheme shared by CPF and CNPJ. */
function mod11Digit(values: number[], weights: number[]): number {
  const sum = values.reduce((acc, v, i) => acc + v * weights[i]!, 0)
  const rest = sum % 11
  return rest < 2 ? 0 : 11 - rest
}

export function isValidCpf(text: string): boolean {
  if (!/^[\d.\-\s]+$/.test(text)) return false
  const digits = onlyDigits(text)
  if (digits.length !== 11 || /^(\d)\1{10}$/.test(digits)) return false
  const n = [...digits].map(Number)
  const first = mod11Digit(n.slice(0, 9), [10, 9, 8, 7, 6, 5, 4, 3, 2])
  const second = mod11Digit(n.slice(0, 10), [11, 10, 9, 8, 7, 6, 5, 4, 3, 2])
  return n[9] === first && n[10] === second
}

const CNPJ_WEIGHTS_1 = [5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2]
const CNPJ_WEIGHTS_2 = [6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2]

/** Canonical CNPJ: 12 alphanumeric characters + 2 digits, uppercase, no mask; or null. */
function canonicalCnpj(text: string): string | null {
  if (!/^[\dA-Za-z.\-/\s]+$/.test(text)) return null
  const value = text.replace(/[.\-/\s]/g, '').toUpperCase()
  return /^[0-9A-Z]{12}\d{2}$/.test(value) ? value : null
}

/** Numeric and alphanumeric CNPJ: each character counts as its ASCII code − 48. */
export function isValidCnpj(text: string): boolean {
  const value = canonicalCnpj(text)
  if (!value || /^(\d)\1{13}$/.test(value)) return false
  const n = [...value].map((c) => c.charCodeAt(0) - 48)
  const first = mod11Digit(n.slice(0, 12), CNPJ_WEIGHTS_1)
  const second = mod11Digit(n.slice(0, 13), CNPJ_WEIGHTS_2)
  return n[12] === first && n[13] === second
}

export function normalizeTaxId(text: string): { kind: 'cpf' | 'cnpj'; value: string } | null {
  if (isValidCpf(text)) return { kind: 'cpf', value: onlyDigits(text) }
  if (isValidCnpj(text)) return { kind: 'cnpj', value: canonicalCnpj(text)! }
  return null
}

/** E.164 `+55DDNNNNNNNNN` for a Brazilian mobile (9 digits, starts with 9) or landline (8, 2–5). */
export function normalizeBrazilianPhone(text: string): string | null {
  if (!/^[\d\s()+\-.]+$/.test(text)) return null
  let digits = onlyDigits(text)
  if ((digits.length === 12 || digits.length === 13) && digits.startsWith('55'))
    digits = digits.slice(2)
  if (digits.length !== 10 && digits.length !== 11) return null
  const ddd = digits.slice(0, 2)
  const number = digits.slice(2)
  if (ddd[0] === '0' || ddd[1] === '0') return null
  const mobile = number.length === 9 && number[0] === '9'
  const landline = number.length === 8 && /^[2-5]/.test(number)
  return mobile || landline ? `+55${ddd}${number}` : null
}

/** The Luhn check digit every card number carries. */
export function luhnValid(digits: string): boolean {
  let sum = 0
  for (let i = 0; i < digits.length; i++) {
    let digit = Number(digits[digits.length - 1 - i])
    if (i % 2 === 1) digit = digit * 2 > 9 ? digit * 2 - 9 : digit * 2
    sum += digit
  }
  return sum % 10 === 0
}
