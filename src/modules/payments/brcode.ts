// PIX "BR Code" (EMV QRCPS Merchant Presented Mode, Banco Central do Brasil): the copy-and-paste
// text behind every PIX QR code. Fields are ID (2 digits) + length (2 digits) + value.
import { formatDecimal } from '../../kit/money.ts'

/** CRC16/CCITT-FALSE (poly 0x1021, init 0xFFFF) over the UTF-8 bytes, 4 uppercase hex digits. */
export function crc16ccitt(payload: string): string {
  let crc = 0xffff
  for (const byte of Buffer.from(payload, 'utf8')) {
    crc ^= byte << 8
    for (let bit = 0; bit < 8; bit++) {
      crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff
    }
  }
  return crc.toString(16).toUpperCase().padStart(4, '0')
}

function field(id: string, value: string): string {
  const length = Buffer.byteLength(value, 'utf8')
  if (length > 99) throw new RangeError(`BR Code field ${id} is longer than 99 bytes`)
  return `${id}${String(length).padStart(2, '0')}${value}`
}

/** Names and cities go out as plain ASCII (accents stripped), as bank apps expect. */
function ascii(text: string, max: number): string {
  return text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^\x20-\x7e]/g, '')
    .trim()
    .slice(0, max)
}

export interface PixCopyPasteInput {
  pixKey: string
  merchantName: string
  merchantCity: string
  amountCents?: number
  txid?: string
  description?: string
}

/**
 * A static BR Code. No "01 12" (single-use) marker: static codes with an amount and a txid
 * are how a gateway's sandbox and small merchants issue charges; the txid ties the payment
 * back to the charge.
 */
export function buildPixCopyPaste(input: PixCopyPasteInput): string {
  const txid = input.txid ?? '***'
  if (txid !== '***' && !/^[A-Za-z0-9]{1,25}$/.test(txid)) {
    throw new RangeError('txid must be 1–25 letters or digits')
  }
  if (!input.pixKey || input.pixKey.length > 77) throw new RangeError('invalid PIX key')
  const account =
    field('00', 'br.gov.bcb.pix') +
    field('01', input.pixKey) +
    (input.description ? field('02', input.description) : '')
  const payload =
    field('00', '01') +
    field('26', account) +
    field('52', '0000') +
    field('53', '986') +
    (input.amountCents !== undefined ? field('54', formatDecimal(input.amountCents)) : '') +
    field('58', 'BR') +
    field('59', ascii(input.merchantName, 25)) +
    field('60', ascii(input.merchantCity, 15)) +
    field('62', field('05', txid)) +
    '6304'
  return payload + crc16ccitt(payload)
}

export interface ParsedPixCode {
  fields: Record<string, string>
  merchantAccount: Record<string, string>
  additionalData: Record<string, string>
  crcValid: boolean
}

function parseFields(text: string): Record<string, string> {
  const out: Record<string, string> = {}
  let i = 0
  while (i < text.length) {
    const id = text.slice(i, i + 2)
    const length = Number(text.slice(i + 2, i + 4))
    if (!/^\d{2}$/.test(id) || Number.isNaN(length))
      throw new SyntaxError(`bad BR Code field at ${i}`)
    out[id] = text.slice(i + 4, i + 4 + length)
    i += 4 + length
  }
  return out
}

export function parsePixCopyPaste(code: string): ParsedPixCode {
  const fields = parseFields(code)
  const body = code.slice(0, -4)
  return {
    fields,
    merchantAccount: parseFields(fields['26'] ?? ''),
    additionalData: parseFields(fields['62'] ?? ''),
    crcValid: body.endsWith('6304') && crc16ccitt(body) === code.slice(-4),
  }
}
