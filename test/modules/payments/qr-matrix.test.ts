// Our QR encoder (byte mode, level M, mask 0) draws, module for module, what the `qrcode`
// package draws with the same fixed choices, at every version a code's length can need.
import fc from 'fast-check'
import QRCode from 'qrcode'
import { describe, expect, it } from 'vitest'
import { qrMatrix } from '../../../src/modules/payments/qr-matrix.ts'

function referenceMatrix(data: Uint8Array) {
  const { modules } = QRCode.create([{ data: Buffer.from(data), mode: 'byte' }], {
    errorCorrectionLevel: 'M',
    maskPattern: 0,
  })
  return { size: modules.size, dark: Uint8Array.from(modules.data, (m) => (m ? 1 : 0)) }
}

// The most bytes each version holds at level M (ISO/IEC 18004, table 7).
const CAPACITY = [
  0, 14, 26, 42, 62, 84, 106, 122, 152, 180, 213, 251, 287, 331, 362, 412, 450, 504, 560, 624, 666,
  711, 779, 857, 911, 997, 1059, 1125, 1190, 1264, 1370, 1452, 1538, 1628, 1722, 1809, 1911, 1989,
  2099, 2213, 2331,
]

describe('PIX QR matrix', () => {
  it('draws what qrcode draws, at both ends of every version', () => {
    for (let version = 1; version <= 40; version++) {
      for (const length of [CAPACITY[version - 1]! + 1, CAPACITY[version]!]) {
        const data = Uint8Array.from({ length }, (_, i) => (i * 131 + version * 7) & 0xff)
        const ours = qrMatrix(data)
        expect(ours.size, `version ${version}, ${length} bytes`).toBe(version * 4 + 17)
        expect(Buffer.from(ours.dark).equals(Buffer.from(referenceMatrix(data).dark))).toBe(true)
      }
    }
  })

  it('draws what qrcode draws for any bytes of a BR Code length', () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 1, maxLength: 600, size: 'max' }), (data) => {
        const ours = qrMatrix(data)
        const reference = referenceMatrix(data)
        expect(ours.size).toBe(reference.size)
        expect(Buffer.from(ours.dark).equals(Buffer.from(reference.dark))).toBe(true)
      }),
      { numRuns: 300 },
    )
  })

  it('refuses more bytes than version 40 holds', () => {
    expect(() => qrMatrix(new Uint8Array(2332))).toThrow(RangeError)
  })
})
