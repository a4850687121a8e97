// Bank boleto numbers (FEBRABAN "boleto de cobrança"): the 44-digit barcode, the 47-digit
// digitable line with its mod-10 / mod-11 check digits, and the ITF barcode image.

const DAY_MS = 86_400_000
const FACTOR_BASE = Date.UTC(1997, 9, 7)

/**
 * Days since 1997-10-07, kept in 1000–9999: the factor reached 9999 on 2025-02-21 and restarted
 * at 1000 on 2025-02-22 (FEBRABAN), repeating every 9000 days.
 */
export function dueDateFactor(due: Date): string {
  const day = Date.UTC(due.getUTCFullYear(), due.getUTCMonth(), due.getUTCDate())
  const days = Math.round((day - FACTOR_BASE) / DAY_MS)
  if (days < 1000) throw new RangeError('due date before the first factor')
  return String(((days - 1000) % 9000) + 1000)
}

/** Mod 10 of the digitable line's fields: weights 2,1,2,1… from the right, products' digits summed. */
export function mod10(digits: string): number {
  let sum = 0
  for (let i = 0; i < digits.length; i++) {
    const product = Number(digits[digits.length - 1 - i]) * (i % 2 === 0 ? 2 : 1)
    sum += product > 9 ? product - 9 : product
  }
  return (10 - (sum % 10)) % 10
}

/** Mod 11 of the barcode: weights 2…9 repeating from the right; 0, 10 and 11 become 1. */
export function mod11Barcode(digits: string): number {
  let sum = 0
  for (let i = 0; i < digits.length; i++)
    sum += Number(digits[digits.length - 1 - i]) * ((i % 8) + 2)
  const dv = 11 - (sum % 11)
  return dv === 0 || dv === 10 || dv === 11 ? 1 : dv
}

export interface Boleto {
  barcode: string
  digitableLine: string
  formattedLine: string
}

export function buildBoleto(input: {
  bankCode: string
  amountCents: number
  dueDate: Date
  freeField: string
}): Boleto {
  if (!/^\d{3}$/.test(input.bankCode)) throw new RangeError('bank code must be 3 digits')
  if (!/^\d{25}$/.test(input.freeField)) throw new RangeError('free field must be 25 digits')
  if (
    !Number.isSafeInteger(input.amountCents) ||
    input.amountCents < 0 ||
    input.amountCents > 9_999_999_999
  ) {
    throw new RangeError('amount does not fit a boleto')
  }
  const head = `${input.bankCode}9`
  const tail =
    dueDateFactor(input.dueDate) + String(input.amountCents).padStart(10, '0') + input.freeField
  const barcode = `${head}${mod11Barcode(head + tail)}${tail}`
  return fromBarcode(barcode)
}

function fromBarcode(barcode: string): Boleto {
  const free = barcode.slice(19)
  const f1 = barcode.slice(0, 4) + free.slice(0, 5)
  const f2 = free.slice(5, 15)
  const f3 = free.slice(15, 25)
  const fields = [f1 + mod10(f1), f2 + mod10(f2), f3 + mod10(f3), barcode[4]!, barcode.slice(5, 19)]
  const [a, b, c, d, e] = fields as [string, string, string, string, string]
  return {
    barcode,
    digitableLine: fields.join(''),
    formattedLine: `${a.slice(0, 5)}.${a.slice(5)} ${b.slice(0, 5)}.${b.slice(5)} ${c.slice(0, 5)}.${c.slice(5)} ${d} ${e}`,
  }
}

/** Checks every check digit of a digitable line (punctuation allowed) and rebuilds the barcode. */
export function parseDigitableLine(line: string): { valid: boolean; barcode: string } {
  const d = line.replace(/[\s.]/g, '')
  if (!/^\d{47}$/.test(d)) return { valid: false, barcode: '' }
  const barcode =
    d.slice(0, 4) + d[32] + d.slice(33, 47) + d.slice(4, 9) + d.slice(10, 20) + d.slice(21, 31)
  const fieldsOk =
    mod10(d.slice(0, 9)) === Number(d[9]) &&
    mod10(d.slice(10, 20)) === Number(d[20]) &&
    mod10(d.slice(21, 31)) === Number(d[31])
  const generalOk = mod11Barcode(barcode.slice(0, 4) + barcode.slice(5)) === Number(barcode[4])
  return { valid: fieldsOk && generalOk, barcode }
}

// Interleaved 2 of 5: n = narrow, w = wide; pairs of digits, the first in bars, the second in spaces.
const ITF = [
  'nnwwn',
  'wnnnw',
  'nwnnw',
  'wwnnn',
  'nnwnw',
  'wnwnn',
  'nwwnn',
  'nnnww',
  'wnnwn',
  'nwnwn',
]

/** The barcode as an SVG data URL (ITF, as printed on every boleto). */
export function barcodeSvgDataUrl(barcode: string): string {
  const pattern: string[] = ['n', 'n', 'n', 'n'] // start: bar, space, bar, space
  for (let i = 0; i < barcode.length; i += 2) {
    const bars = ITF[Number(barcode[i])]!
    const spaces = ITF[Number(barcode[i + 1])]!
    for (let k = 0; k < 5; k++) pattern.push(bars[k]!, spaces[k]!)
  }
  pattern.push('w', 'n', 'n') // stop: wide bar, space, bar
  let x = 10
  const rects: string[] = []
  pattern.forEach((width, i) => {
    const w = width === 'w' ? 3 : 1
    if (i % 2 === 0) rects.push(`<rect x="${x}" y="0" width="${w}" height="50"/>`)
    x += w
  })
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${x + 10} 50" preserveAspectRatio="none">${rects.join('')}</svg>`
  return `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`
}

// Boletos are due in Brasília time: UTC−3, without daylight saving since 2019.
const BRASILIA_OFFSET_MS = 3 * 3_600_000

/** The Brasília calendar day `days` after `now`, as a Date at that day's UTC midnight. */
export function dueDateAfter(now: Date, days: number): Date {
  const local = new Date(now.getTime() - BRASILIA_OFFSET_MS + days * DAY_MS)
  return new Date(Date.UTC(local.getUTCFullYear(), local.getUTCMonth(), local.getUTCDate()))
}

/** The instant a boleto stops being payable: the end of its due day in Brasília. */
export function endOfDueDate(dueDate: string): Date {
  const [y, m, d] = dueDate.split('-').map(Number) as [number, number, number]
  return new Date(Date.UTC(y, m - 1, d + 1) + BRASILIA_OFFSET_MS)
}
