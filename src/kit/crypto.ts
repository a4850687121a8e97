import {
  createCipheriv,
  createDecipheriv,
  createHash,
  createHmac,
  randomBytes,
  scrypt,
  timingSafeEqual,
} from 'node:crypto'
import { promisify } from 'node:util'

const scryptAsync = promisify(scrypt) as (
  password: string,
  salt: Buffer,
  keylen: number,
  options: { N: number; r: number; p: number; maxmem: number },
) => Promise<Buffer>

// OWASP's scrypt minimum (N=2^17, r=8, p=1) costs ~128 MiB and ~0.3 s here; N=2^15 keeps
// log-in fast on a 2-core box while staying far beyond brute-force budgets for online attacks.
const SCRYPT = { N: 2 ** 15, r: 8, p: 1, maxmem: 64 * 1024 * 1024 }

export function randomToken(bytes = 32): string {
  return randomBytes(bytes).toString('base64url')
}

export function sha256Hex(value: string): string {
  return createHash('sha256').update(value).digest('hex')
}

export function hmacHex(secret: string | Buffer, body: string | Buffer): string {
  return createHmac('sha256', secret).update(body).digest('hex')
}

export function hmacBase64(secret: string | Buffer, body: string | Buffer): string {
  return createHmac('sha256', secret).update(body).digest('base64')
}

/** Constant-time string comparison (lengths may differ). */
export function safeEqual(a: string, b: string): boolean {
  const left = createHash('sha256').update(a).digest()
  const right = createHash('sha256').update(b).digest()
  return timingSafeEqual(left, right) && a.length === b.length
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16)
  const key = await scryptAsync(password.normalize('NFKC'), salt, 32, SCRYPT)
  return `scrypt$${SCRYPT.N}$${SCRYPT.r}$${SCRYPT.p}$${salt.toString('base64')}$${key.toString('base64')}`
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, key] = stored.split('$')
  if (scheme !== 'scrypt' || !n || !r || !p || !salt || !key) return false
  const expected = Buffer.from(key, 'base64')
  const actual = await scryptAsync(
    password.normalize('NFKC'),
    Buffer.from(salt, 'base64'),
    expected.length,
    {
      N: Number(n),
      r: Number(r),
      p: Number(p),
      maxmem: SCRYPT.maxmem,
    },
  )
  return timingSafeEqual(actual, expected)
}

/** AES-256-GCM for secrets we must read back (webhook signing secrets). */
export function encrypt(key: Buffer, plaintext: string): string {
  const iv = randomBytes(12)
  const cipher = createCipheriv('aes-256-gcm', key, iv)
  const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()])
  return `v1.${iv.toString('base64url')}.${cipher.getAuthTag().toString('base64url')}.${body.toString('base64url')}`
}

export function decrypt(key: Buffer, sealed: string): string {
  const [version, iv, tag, body] = sealed.split('.')
  if (version !== 'v1' || !iv || !tag || !body) throw new Error('Unknown ciphertext format')
  const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'))
  decipher.setAuthTag(Buffer.from(tag, 'base64url'))
  return Buffer.concat([
    decipher.update(Buffer.from(body, 'base64url')),
    decipher.final(),
  ]).toString('utf8')
}

// Derived once per (secret, purpose): signing a link or a webhook runs on every purchase.
const derivedKeys = new Map<string, Buffer>()

/** Derives independent keys from the one app secret (HKDF-like, per purpose). */
export function deriveKey(appSecret: string, purpose: string): Buffer {
  const id = `${purpose}\0${appSecret}`
  let key = derivedKeys.get(id)
  if (!key) {
    if (derivedKeys.size >= 64) derivedKeys.clear()
    key = createHmac('sha256', appSecret).update(`vitrine:${purpose}`).digest()
    derivedKeys.set(id, key)
  }
  return key
}
