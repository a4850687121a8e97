// Parameters sent to PostgreSQL in its binary format where their type has a simple layout
// (uuid, int2/4/8, timestamptz, bool and arrays of them, arrays of text and jsonb): PostgreSQL
// then copies bytes instead of parsing text. Parsing parameters (array_in with uuid_in per
// element, timestamptz_in) was ~10 % of PostgreSQL's instructions a purchase (callgrind). The
// types are the ones PostgreSQL itself inferred for the statement (kit/pg-prepared.ts asks
// once), so the bytes are read as exactly that type. A value that does not fit its type as
// expected (a string for a timestamptz, a number out of range, a uuid in another spelling)
// goes as text, as before, and PostgreSQL answers it as it always did.

/** A value's bytes in PostgreSQL's binary format, or undefined: send it as text. */
type Encoder = (value: unknown) => Buffer | undefined

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i
/** 2000-01-01T00:00:00Z, PostgreSQL's epoch for timestamps, in Unix milliseconds. */
const PG_EPOCH_MS = 946_684_800_000

/** A two's-complement integer; an int8 only within what a JS number holds exactly. */
function integer(bytes: 2 | 4 | 8): Encoder {
  const max = bytes === 8 ? Number.MAX_SAFE_INTEGER : 2 ** (bytes * 8 - 1) - 1
  const min = bytes === 8 ? -Number.MAX_SAFE_INTEGER : -(max + 1)
  return (value) => {
    if (!Number.isInteger(value)) return undefined
    const n = value as number
    if (n > max || n < min) return undefined
    const buf = Buffer.allocUnsafe(bytes)
    if (bytes === 2) buf.writeInt16BE(n)
    else if (bytes === 4) buf.writeInt32BE(n)
    else buf.writeBigInt64BE(BigInt(n))
    return buf
  }
}

const uuid: Encoder = (value) =>
  typeof value === 'string' && UUID.test(value)
    ? Buffer.from(value.replaceAll('-', ''), 'hex')
    : undefined

const timestamptz: Encoder = (value) => {
  if (!(value instanceof Date)) return undefined
  const ms = value.getTime()
  if (Number.isNaN(ms)) return undefined
  const buf = Buffer.allocUnsafe(8)
  buf.writeBigInt64BE(BigInt(ms - PG_EPOCH_MS) * 1000n)
  return buf
}

const bool: Encoder = (value) =>
  typeof value === 'boolean' ? Buffer.from([value ? 1 : 0]) : undefined

const JSONB_VERSION = Buffer.from([1])
/** JSON text after the format's version byte: in an array, PostgreSQL skips the unescaping. */
const jsonbText: Encoder = (value) =>
  typeof value === 'string' && !value.includes('\0')
    ? Buffer.concat([JSONB_VERSION, Buffer.from(value, 'utf8')])
    : undefined

/** Text as itself; in an array this spares PostgreSQL the quoting and escaping. */
const text: Encoder = (value) =>
  typeof value === 'string' && !value.includes('\0') ? Buffer.from(value, 'utf8') : undefined

/** A one-dimensional array (lower bound 1) of one element type; NULL elements allowed. */
function arrayOf(elementOid: number, encode: Encoder): Encoder {
  return (value) => {
    if (!Array.isArray(value)) return undefined
    const parts: (Buffer | null)[] = []
    let size = value.length ? 20 : 12
    for (const element of value) {
      if (element === null || element === undefined) {
        parts.push(null)
        size += 4
        continue
      }
      const bytes = encode(element)
      if (!bytes) return undefined
      parts.push(bytes)
      size += 4 + bytes.length
    }
    const buf = Buffer.allocUnsafe(size)
    let at = buf.writeInt32BE(value.length ? 1 : 0, 0) // dimensions
    at = buf.writeInt32BE(parts.includes(null) ? 1 : 0, at) // has NULLs
    at = buf.writeInt32BE(elementOid, at) // array_recv checks it
    if (value.length) {
      at = buf.writeInt32BE(value.length, at)
      at = buf.writeInt32BE(1, at) // lower bound
    }
    for (const part of parts) {
      at = buf.writeInt32BE(part ? part.length : -1, at)
      if (part) at += part.copy(buf, at)
    }
    return buf
  }
}

/** Encoders by PostgreSQL type oid (pg_type); any other type goes as text. */
const ENCODERS = new Map<number, Encoder>([
  [2950, uuid],
  [20, integer(8)],
  [23, integer(4)],
  [21, integer(2)],
  [1184, timestamptz],
  [16, bool],
  // Text and jsonb read the same either way; in an array, binary spares the quoting.
  [2951, arrayOf(2950, uuid)],
  [1016, arrayOf(20, integer(8))],
  [1007, arrayOf(23, integer(4))],
  [1005, arrayOf(21, integer(2))],
  [1185, arrayOf(1184, timestamptz)],
  [1009, arrayOf(25, text)],
  [1000, arrayOf(16, bool)],
  [3807, arrayOf(3802, jsonbText)],
])

/**
 * The encoder of each parameter, given the parameters' types as PostgreSQL described the
 * statement (ParameterDescription); null where the parameter goes as text. A domain's oid
 * is none of these: its parameters go as text, checked by the domain as before.
 */
export function parameterEncoders(typeOids: number[]): (Encoder | null)[] {
  return typeOids.map((oid) => ENCODERS.get(oid) ?? null)
}
