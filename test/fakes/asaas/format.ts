// Identifiers and dates the way Asaas writes them. Asaas dates are calendar days in Brasília.
import { randomBytes, randomUUID } from 'node:crypto'
import { dueDateAfter } from '../../../src/modules/payments/boleto.ts'

const BRASILIA_OFFSET_MS = 3 * 3_600_000

function randomChars(alphabet: string, length: number): string {
  return [...randomBytes(length)].map((b) => alphabet[b % alphabet.length]).join('')
}

let eventCounter = 0

export const newId = {
  /** `cus_000005219613` in the docs. */
  customer: () => `cus_${randomChars('0123456789', 12)}`,
  /** `pay_080225913252`, `pay_6egmyz6lpfxazko3` in the docs. */
  payment: () => `pay_${randomChars('0123456789abcdefghijklmnopqrstuvwxyz', 16)}`,
  /** `evt_05b708f961d739ea7eba7e4db318f621&368604920` in the docs. */
  event: () => `evt_${randomBytes(16).toString('hex')}&${++eventCounter}`,
  /** Transfers, installments, card tokens and wallets are UUIDs. */
  uuid: () => randomUUID(),
  /** Pix end-to-end id: "E" + 31 characters (BCB format). */
  endToEnd: () => `E${randomChars('0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ', 31)}`,
}

/** "YYYY-MM-DD" of the Brasília day `plusDays` after `now`. */
export function brasiliaDay(now: Date, plusDays = 0): string {
  return dueDateAfter(now, plusDays).toISOString().slice(0, 10)
}

/** "YYYY-MM-DD HH:mm:ss" in Brasília, as webhook `dateCreated` is written. */
export function brasiliaDateTime(now: Date): string {
  return new Date(now.getTime() - BRASILIA_OFFSET_MS).toISOString().slice(0, 19).replace('T', ' ')
}

/** True for a real calendar day written "YYYY-MM-DD". */
export function isCalendarDay(text: unknown): text is string {
  if (typeof text !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(text)) return false
  return new Date(`${text}T00:00:00Z`).toISOString().slice(0, 10) === text
}

/** The same day `months` later, clamped to the month's last day (Jan 31 + 1 → Feb 28). */
export function addMonths(day: string, months: number): string {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number]
  const lastDay = new Date(Date.UTC(y, m - 1 + months + 1, 0)).getUTCDate()
  return new Date(Date.UTC(y, m - 1 + months, Math.min(d, lastDay))).toISOString().slice(0, 10)
}
