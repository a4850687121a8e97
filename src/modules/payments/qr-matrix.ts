// The modules of a PIX QR code, computed here (issue 13): one byte-mode segment, error
// correction level M, mask 0 — the choices qr.ts used to fix in the `qrcode` package, whose
// general encoder (segment search, polynomial arithmetic on fresh arrays) cost ~0.2 ms a
// charge, a few per cent of the service's loop in a launch. Any mask makes a valid code that
// readers decode. The steps follow ISO/IEC 18004 as Project Nayuki's QR Code generator writes
// them; test/modules/payments/qr-matrix.test.ts compares every version's matrix with
// `qrcode`'s.

/** Error-correction codewords per block at level M, by version (index 0 unused). */
const ECC_PER_BLOCK = [
  0, 10, 16, 26, 18, 24, 16, 18, 22, 22, 26, 30, 22, 22, 24, 24, 28, 28, 26, 26, 26, 26, 28, 28, 28,
  28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28,
]
/** Error-correction blocks at level M, by version. */
const BLOCKS = [
  0, 1, 1, 1, 2, 2, 4, 4, 4, 5, 5, 5, 8, 9, 9, 10, 10, 11, 13, 14, 16, 17, 17, 18, 20, 21, 23, 25,
  26, 28, 29, 31, 33, 35, 37, 38, 40, 43, 45, 47, 49,
]
/** Level M in the format information (L 1, M 0, Q 3, H 2). */
const FORMAT_LEVEL_M = 0
/** Mask 0: a module darkens where x + y is even (drawCodewords). */
const MASK = 0

export interface QrMatrix {
  size: number
  /** Row by row, 1 where the module is dark. */
  dark: Uint8Array
}

/** The QR code of `data` (bytes), at the smallest version that holds it. */
export function qrMatrix(data: Uint8Array): QrMatrix {
  const version = smallestVersion(data.length)
  const codewords = interleaveWithEcc(dataCodewords(data, version), version)
  const size = version * 4 + 17
  const drawing = { size, dark: new Uint8Array(size * size), fixed: new Uint8Array(size * size) }
  drawFunctionPatterns(drawing, version)
  drawCodewords(drawing, codewords)
  return { size, dark: drawing.dark }
}

/** Modules that hold data (not a function pattern's) before any pattern is drawn. */
function rawDataModules(version: number): number {
  let modules = (16 * version + 128) * version + 64
  if (version >= 2) {
    const align = Math.floor(version / 7) + 2
    modules -= (25 * align - 10) * align - 55
    if (version >= 7) modules -= 36
  }
  return modules
}

const dataCapacity = (version: number) =>
  Math.floor(rawDataModules(version) / 8) - ECC_PER_BLOCK[version]! * BLOCKS[version]!

const countBits = (version: number) => (version <= 9 ? 8 : 16)

function smallestVersion(bytes: number): number {
  for (let version = 1; version <= 40; version++) {
    if (4 + countBits(version) + 8 * bytes <= 8 * dataCapacity(version)) return version
  }
  throw new RangeError(`${bytes} bytes do not fit in a QR code at level M`)
}

/** Mode, length, the bytes, terminator and padding: the data codewords of the version. */
function dataCodewords(data: Uint8Array, version: number): Uint8Array {
  const capacity = dataCapacity(version)
  const out = new Uint8Array(capacity)
  let bit = 0
  const put = (value: number, length: number) => {
    for (let i = length - 1; i >= 0; i--, bit++) {
      if ((value >>> i) & 1) out[bit >>> 3]! |= 0x80 >>> (bit & 7)
    }
  }
  put(0b0100, 4) // byte mode
  put(data.length, countBits(version))
  for (const byte of data) put(byte, 8)
  bit += Math.min(4, capacity * 8 - bit) // terminator (zeros)
  bit = (bit + 7) & ~7
  for (let pad = 0xec, at = bit >>> 3; at < capacity; at++, pad ^= 0xec ^ 0x11) out[at] = pad
  return out
}

/** Split into blocks, each followed by its error correction, and interleaved. */
function interleaveWithEcc(data: Uint8Array, version: number): Uint8Array {
  const blocks = BLOCKS[version]!
  const eccLength = ECC_PER_BLOCK[version]!
  const raw = Math.floor(rawDataModules(version) / 8)
  const shortBlocks = blocks - (raw % blocks)
  const shortLength = Math.floor(raw / blocks) // a short block's codewords, with its ECC
  const divisor = rsDivisor(eccLength)
  const dataOf: Uint8Array[] = []
  const eccOf: Uint8Array[] = []
  for (let b = 0, at = 0; b < blocks; b++) {
    const length = shortLength - eccLength + (b < shortBlocks ? 0 : 1)
    const block = data.subarray(at, at + length)
    at += length
    dataOf.push(block)
    eccOf.push(rsRemainder(block, divisor))
  }
  const out = new Uint8Array(raw)
  let at = 0
  for (let i = 0; i <= shortLength - eccLength; i++) {
    for (const block of dataOf) if (i < block.length) out[at++] = block[i]!
  }
  for (let i = 0; i < eccLength; i++) for (const ecc of eccOf) out[at++] = ecc[i]!
  return out
}

// GF(2^8) with the QR polynomial x^8 + x^4 + x^3 + x^2 + 1, by logarithms.
const EXP = new Uint8Array(512)
const LOG = new Uint8Array(256)
for (let i = 0, x = 1; i < 255; i++, x = (x << 1) ^ (x & 0x80 ? 0x11d : 0)) {
  EXP[i] = x
  LOG[x] = i
}
for (let i = 255; i < 512; i++) EXP[i] = EXP[i - 255]!
const gfMul = (a: number, b: number) => (a && b ? EXP[LOG[a]! + LOG[b]!]! : 0)

const divisors = new Map<number, Uint8Array>()

/** The generator polynomial of `degree`, highest power first, its leading 1 left out. */
function rsDivisor(degree: number): Uint8Array {
  const cached = divisors.get(degree)
  if (cached) return cached
  const result = new Uint8Array(degree)
  result[degree - 1] = 1
  for (let i = 0, root = 1; i < degree; i++, root = gfMul(root, 2)) {
    for (let j = 0; j < degree; j++) {
      result[j] = gfMul(result[j]!, root) ^ (j + 1 < degree ? result[j + 1]! : 0)
    }
  }
  divisors.set(degree, result)
  return result
}

function rsRemainder(data: Uint8Array, divisor: Uint8Array): Uint8Array {
  const degree = divisor.length
  const result = new Uint8Array(degree)
  for (const byte of data) {
    const factor = byte ^ result[0]!
    result.copyWithin(0, 1)
    result[degree - 1] = 0
    for (let i = 0; i < degree; i++) result[i]! ^= gfMul(divisor[i]!, factor)
  }
  return result
}

interface Drawing {
  size: number
  dark: Uint8Array
  /** 1 on a function pattern's modules, which data and mask leave alone. */
  fixed: Uint8Array
}

function setFunction(s: Drawing, x: number, y: number, dark: boolean) {
  s.dark[y * s.size + x] = dark ? 1 : 0
  s.fixed[y * s.size + x] = 1
}

function drawFunctionPatterns(s: Drawing, version: number) {
  const { size } = s
  for (let i = 0; i < size; i++) {
    setFunction(s, 6, i, i % 2 === 0)
    setFunction(s, i, 6, i % 2 === 0)
  }
  for (const [x, y] of [
    [3, 3],
    [size - 4, 3],
    [3, size - 4],
  ] as const) {
    for (let dy = -4; dy <= 4; dy++) {
      for (let dx = -4; dx <= 4; dx++) {
        const distance = Math.max(Math.abs(dx), Math.abs(dy))
        const xx = x + dx
        const yy = y + dy
        if (xx >= 0 && xx < size && yy >= 0 && yy < size)
          setFunction(s, xx, yy, distance !== 2 && distance !== 4)
      }
    }
  }
  const positions = alignmentPositions(version, size)
  const last = positions.length - 1
  for (let i = 0; i <= last; i++) {
    for (let j = 0; j <= last; j++) {
      // Not over the three finder patterns.
      if ((i === 0 && j === 0) || (i === 0 && j === last) || (i === last && j === 0)) continue
      drawAlignmentPattern(s, positions[j]!, positions[i]!)
    }
  }
  drawFormatBits(s)
  drawVersionBits(s, version)
}

/** A 5 × 5 alignment pattern centred on (x, y): dark ring, light ring, dark centre. */
function drawAlignmentPattern(s: Drawing, x: number, y: number) {
  for (let dy = -2; dy <= 2; dy++) {
    for (let dx = -2; dx <= 2; dx++)
      setFunction(s, x + dx, y + dy, Math.max(Math.abs(dx), Math.abs(dy)) !== 1)
  }
}

function alignmentPositions(version: number, size: number): number[] {
  if (version === 1) return []
  const count = Math.floor(version / 7) + 2
  const step = Math.floor((version * 8 + count * 3 + 5) / (count * 4 - 4)) * 2
  const positions = [6]
  for (let at = size - 7; positions.length < count; at -= step) positions.splice(1, 0, at)
  return positions
}

const bitOf = (value: number, i: number) => ((value >>> i) & 1) !== 0

/** Level M and the mask, with their BCH error correction, in both copies; and the dark module. */
function drawFormatBits(s: Drawing) {
  const { size } = s
  const data = (FORMAT_LEVEL_M << 3) | MASK
  let rem = data
  for (let i = 0; i < 10; i++) rem = (rem << 1) ^ ((rem >>> 9) * 0x537)
  const bits = ((data << 10) | rem) ^ 0x5412
  for (let i = 0; i <= 5; i++) setFunction(s, 8, i, bitOf(bits, i))
  setFunction(s, 8, 7, bitOf(bits, 6))
  setFunction(s, 8, 8, bitOf(bits, 7))
  setFunction(s, 7, 8, bitOf(bits, 8))
  for (let i = 9; i < 15; i++) setFunction(s, 14 - i, 8, bitOf(bits, i))
  for (let i = 0; i < 8; i++) setFunction(s, size - 1 - i, 8, bitOf(bits, i))
  for (let i = 8; i < 15; i++) setFunction(s, 8, size - 15 + i, bitOf(bits, i))
  setFunction(s, 8, size - 8, true)
}

function drawVersionBits(s: Drawing, version: number) {
  if (version < 7) return
  let rem = version
  for (let i = 0; i < 12; i++) rem = (rem << 1) ^ ((rem >>> 11) * 0x1f25)
  const bits = (version << 12) | rem
  for (let i = 0; i < 18; i++) {
    const a = s.size - 11 + (i % 3)
    const b = Math.floor(i / 3)
    setFunction(s, a, b, bitOf(bits, i))
    setFunction(s, b, a, bitOf(bits, i))
  }
}

/** The codewords' bits in the zigzag of two-module columns, then mask 0 over them. */
function drawCodewords(s: Drawing, codewords: Uint8Array) {
  const { size, dark, fixed } = s
  const bits = codewords.length * 8
  let i = 0
  for (let right = size - 1; right >= 1; right -= 2) {
    if (right === 6) right = 5 // the vertical timing pattern's column
    const upward = ((right + 1) & 2) === 0
    for (let vertical = 0; vertical < size; vertical++) {
      const y = upward ? size - 1 - vertical : vertical
      for (let x = right; x > right - 2; x--) {
        const at = y * size + x
        if (fixed[at]) continue
        // Remainder bits past the codewords stay light; mask 0 darkens where x + y is even.
        const bit = i < bits && (codewords[i >>> 3]! >>> (7 - (i & 7))) & 1
        i++
        dark[at] = (bit ? 1 : 0) ^ ((x + y) % 2 === 0 ? 1 : 0)
      }
    }
  }
}
