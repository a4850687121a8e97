// Mercado Pago's webhook signature [WH; SDK WebhookSignatureValidator]: the `x-signature` header
// is `ts=<timestamp>,v1=<hex>`, v1 = HMAC-SHA256(secret, "id:<data.id>;request-id:<x-request-id>;
// ts:<ts>;"), data.id taken from the query string, any missing part left out of the manifest.
import { hmacHex, safeEqual } from '../../../../kit/crypto.ts'

/** A notification signed further than this from now is refused (a replay, or a wrong clock). */
export const SIGNATURE_TOLERANCE_MS = 5 * 60_000

export interface SignedNotice {
  xSignature: string | undefined
  xRequestId: string | undefined
  /** `data.id` from the query string. */
  dataId: string | undefined
}

/** True only for a well-formed, correctly signed and fresh notification. */
export function verifySignature(notice: SignedNotice, secret: string, now: Date): boolean {
  const header = trimmed(notice.xSignature)
  if (!header || !secret) return false
  const { ts, v1 } = parseHeader(header)
  if (!ts || !v1 || !/^\d+$/.test(ts)) return false
  const expected = hmacHex(secret, manifestOf(notice, ts))
  if (!safeEqual(expected, v1.toLowerCase())) return false
  return Math.abs(now.getTime() - timestampMs(ts)) <= SIGNATURE_TOLERANCE_MS
}

/** The signed text, built as the official SDK builds it. */
export function manifestOf(notice: Omit<SignedNotice, 'xSignature'>, ts: string): string {
  const parts: string[] = []
  const dataId = trimmed(notice.dataId)
  const requestId = trimmed(notice.xRequestId)
  // The docs: an alphanumeric data.id is signed lower-cased (payment ids are digits anyway).
  if (dataId) parts.push(`id:${dataId.toLowerCase()}`)
  if (requestId) parts.push(`request-id:${requestId}`)
  parts.push(`ts:${ts}`)
  return `${parts.join(';')};`
}

function parseHeader(header: string): { ts?: string; v1?: string } {
  const out: { ts?: string; v1?: string } = {}
  for (const part of header.split(',')) {
    const eq = part.indexOf('=')
    if (eq === -1) continue
    const key = part.slice(0, eq).trim().toLowerCase()
    const value = part.slice(eq + 1).trim()
    if (key === 'ts' && value) out.ts = value
    if (key === 'v1' && value) out.v1 = value
  }
  return out
}

/**
 * The page's prose says milliseconds, its example and the published SDK (3.6.1) seconds: a
 * value below 10¹² is read as seconds (that is before 2001 in milliseconds).
 */
function timestampMs(ts: string): number {
  const n = Number(ts)
  return n < 1e12 ? n * 1000 : n
}

function trimmed(value: string | undefined): string | undefined {
  const t = value?.trim()
  return t ? t : undefined
}
