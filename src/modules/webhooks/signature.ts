// Outgoing webhook signatures: the seed's `x-service-signature` (hex HMAC of the raw body keyed
// with the whole secret string) plus Standard Webhooks headers for replay protection.
import { randomBytes } from 'node:crypto'
import { hmacBase64, hmacHex, safeEqual } from '../../kit/crypto.ts'

const PREFIX = 'whsec_'

/** Standard Webhooks format: `whsec_` + base64 of 32 random key bytes. */
export function generateWebhookSecret(): string {
  return `${PREFIX}${randomBytes(32).toString('base64')}`
}

function keyBytes(secret: string): Buffer {
  return Buffer.from(secret.startsWith(PREFIX) ? secret.slice(PREFIX.length) : secret, 'base64')
}

export function serviceSignature(secret: string, body: string): string {
  return `sha256=${hmacHex(secret, body)}`
}

function standardSignature(secret: string, id: string, timestamp: number, body: string): string {
  return `v1,${hmacBase64(keyBytes(secret), `${id}.${timestamp}.${body}`)}`
}

/**
 * Headers for one delivery. `secrets` is newest first: during a rotation every live secret
 * signs (space-separated `v1,` entries); `x-service-signature` uses the newest.
 */
export function signWebhook(input: {
  secrets: string[]
  id: string
  timestampSeconds: number
  body: string
}): Record<string, string> {
  const [newest] = input.secrets
  if (!newest) throw new Error('at least one secret is needed')
  return {
    'x-service-signature': serviceSignature(newest, input.body),
    'webhook-id': input.id,
    'webhook-timestamp': String(input.timestampSeconds),
    'webhook-signature': input.secrets
      .map((s) => standardSignature(s, input.id, input.timestampSeconds, input.body))
      .join(' '),
  }
}

export function verifyServiceSignature(
  secret: string,
  body: string,
  header: string | undefined,
): boolean {
  return typeof header === 'string' && safeEqual(header, serviceSignature(secret, body))
}

/** Receiver-side check of the Standard Webhooks headers, with a replay window. */
export function verifyStandardWebhook(
  secret: string,
  headers: Record<string, string | string[] | undefined>,
  body: string,
  toleranceSeconds = 300,
  nowSeconds = Math.floor(Date.now() / 1000),
): boolean {
  const id = headers['webhook-id']
  const timestamp = Number(headers['webhook-timestamp'])
  const signatures = headers['webhook-signature']
  if (typeof id !== 'string' || typeof signatures !== 'string' || !Number.isInteger(timestamp))
    return false
  if (Math.abs(nowSeconds - timestamp) > toleranceSeconds) return false
  const expected = standardSignature(secret, id, timestamp, body)
  return signatures.split(' ').some((candidate) => safeEqual(candidate, expected))
}
