import { randomFillSync } from 'node:crypto'

// Random bytes drawn from the system in batches (as crypto.randomUUID does): one call per id
// cost more CPU than anything else in making an id, and a purchase makes about twenty.
const pool = Buffer.alloc(16 * 256)
let poolOffset = pool.length

function randomBytesFromPool(n: number): Buffer {
  if (poolOffset + n > pool.length) {
    randomFillSync(pool)
    poolOffset = 0
  }
  const bytes = Buffer.from(pool.subarray(poolOffset, poolOffset + n))
  poolOffset += n
  return bytes
}

// RFC 9562 method 1: within one millisecond the 12 `rand_a` bits count up from a random start
// (with headroom), so ids one process makes in the same millisecond sort in creation order.
let lastMs = -1
let counter = 0

function nextCounter(ms: number): number {
  if (ms === lastMs && counter < 0xfff) return ++counter
  lastMs = ms
  counter = randomBytesFromPool(2).readUInt16BE(0) & 0x7ff
  return counter
}

/** UUID v7: time-ordered, so primary keys and keyset pages follow creation order. */
export function uuidv7(nowMs = Date.now()): string {
  const ms = nowMs
  const counter = nextCounter(ms)
  const bytes = randomBytesFromPool(16)
  const ts = BigInt(ms)
  for (let i = 0; i < 6; i++) bytes[i] = Number((ts >> BigInt(8 * (5 - i))) & 0xffn)
  bytes[6] = 0x70 | (counter >> 8)
  bytes[7] = counter & 0xff
  bytes[8] = (bytes[8]! & 0x3f) | 0x80
  const hex = bytes.toString('hex')
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`
}

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

export function isUuid(value: string): boolean {
  return UUID_RE.test(value)
}
