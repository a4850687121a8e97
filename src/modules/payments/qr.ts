// The PIX QR image, made cheaply (a checkout draws one per charge; see BENCHMARKS.md).
// - The matrix is qr-matrix.ts's: the code's UTF-8 bytes (a BR Code is ASCII) in one byte-mode
//   segment, level M, mask 0.
// - The PNG is written here: a 1-bit grayscale image, each module row drawn once and its other
//   pixel rows written as PNG's "up" filter (zeros: ~6 % fewer bytes than copies), compressed
//   by Node's native zlib at level 2 (on these rows both quicker and smaller than level 1's:
//   ~40 against ~80 µs, 1.1 against 1.2 KB, measured with copies).
import { crc32, deflateSync } from 'node:zlib'
import { type QrMatrix, qrMatrix } from './qr-matrix.ts'

const SCALE = 6 // pixels per module: ~300 px for a typical PIX code
const MARGIN = 2 // quiet zone, in modules
const WHITE_MODULE = (1 << SCALE) - 1

function chunk(type: string, data: Buffer): Buffer {
  const out = Buffer.alloc(12 + data.length)
  out.writeUInt32BE(data.length, 0)
  out.write(type, 4, 'ascii')
  data.copy(out, 8)
  out.writeUInt32BE(crc32(out.subarray(4, 8 + data.length)), 8 + data.length)
  return out
}

/** A black-on-white PNG of a QR matrix. */
function matrixToPng({ size, dark }: QrMatrix): Buffer {
  const pixels = (size + 2 * MARGIN) * SCALE
  const stride = Math.ceil(pixels / 8) + 1 // the row's filter type (0: none), then its bits
  const raw = Buffer.alloc(stride * pixels, 0xff) // white
  for (let y = 0; y < pixels; y++) raw[y * stride] = 0
  for (let row = 0; row < size; row++) {
    const first = (row + MARGIN) * SCALE * stride
    // The row's pixels, SCALE bits a module (1 white), shifted in and written a byte at a time.
    let bits = 0
    let pending = 0
    let byte = first + 1
    for (let col = -MARGIN; col < size + MARGIN; col++) {
      const light = col < 0 || col >= size || dark[row * size + col] === 0
      bits = (bits << SCALE) | (light ? WHITE_MODULE : 0)
      pending += SCALE
      for (; pending >= 8; pending -= 8) raw[byte++] = bits >>> (pending - 8)
      bits &= (1 << pending) - 1
    }
    if (pending > 0) raw[byte] = (bits << (8 - pending)) | (0xff >>> pending) // padding white
    // The module row's other pixel rows repeat it: with the "up" filter (2), all zeros.
    for (let copy = 1; copy < SCALE; copy++) {
      const at = first + copy * stride
      raw.fill(0, at, at + stride)
      raw[at] = 2
    }
  }
  const header = Buffer.alloc(13)
  header.writeUInt32BE(pixels, 0)
  header.writeUInt32BE(pixels, 4)
  header.set([1, 0, 0, 0, 0], 8) // 1 bit, grayscale, deflate, a filter type per row, no interlace
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(raw, { level: 2 })),
    chunk('IEND', Buffer.alloc(0)),
  ])
}

/** The PIX QR image as a PNG data URL, ready for an <img src>. */
export function pixQrDataUrl(copyPaste: string): string {
  const png = matrixToPng(qrMatrix(Buffer.from(copyPaste, 'utf8')))
  return `data:image/png;base64,${png.toString('base64')}`
}
