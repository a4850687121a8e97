// Reading Asaas' JSON defensively: Asaas adds fields at any time, and a value of an unexpected
// shape makes the answer unreadable (thrown: unknown), never a guess.
import { toCents } from '../../../../kit/money.ts'
import type { AsaasJson } from './client.ts'

export function text(value: unknown): string | null {
  return typeof value === 'string' && value !== '' ? value : null
}

/** A list answer's `data` (`{ object: "list", data: [...] }`). */
export function listData(body: AsaasJson): AsaasJson[] {
  const data = body.data
  if (!Array.isArray(data)) throw new Error('asaas: list answer without data')
  return data.filter((item): item is AsaasJson => typeof item === 'object' && item !== null)
}

/** A BRL amount (a JSON number in reais) in centavos. */
export function cents(value: unknown, field: string): number {
  if (typeof value !== 'number') throw new Error(`asaas: ${field} is not a number`)
  return toCents(value)
}

export function required(body: AsaasJson, field: string): string {
  const value = text(body[field])
  if (value === null) throw new Error(`asaas: answer without ${field}`)
  return value
}
