// The PIX QR image, made cheaply (a checkout draws one per charge; see BENCHMARKS.md).
// - `qrcode` computes the matrix with the choices it would search for fixed: one byte-mode
//   segment (the code's UTF-8 bytes; a BR Code is ASCII) and mask 0. Any mask is a valid code that readers decode; the
//   search scores all eight and was ~0.9 ms of the ~1 ms the matrix cost.
// - The PNG is written here: a 1-bit grayscale image, each module row drawn once and copied
//   for its pixel rows, compressed by Node's native zlib at level 2 (on these rows both quicker
//   and smaller than level 1's: ~40 against ~80 µs, 1.1 against 1.2 KB).
import { crc32, deflateSync } from 'node:zlib'
import QRCode from 'qrcode'

const SCALE = 6 // pixels per module: ~300 px for a typical PIX code
const MARGIN = 2 // quiet zone, in modules

function chunk(type: string, data: Buffer): Buffer {
  const out = Buffer.alloc(12 + data.length)
  out.writeUInt32BE(data.length, 0)
  out.write(type, 4, 'ascii')
  data.copy(out, 8)
  out.writeUInt32BE(crc32(out.subarray(4, 8 + data.length)), 8 + data.length)
  return out
}

/** A black-on-white PNG of a square boolean matrix (true = dark). */
export function matrixToPng(size: number, isDark: (row: number, col: number) => boolean): Buffer {
  const pixels = (size + 2 * MARGIN) * SCALE
  const stride = Math.ceil(pixels / 8) + 1 // filter byte (0: none) + the row's bits
  const raw = Buffer.alloc(stride * pixels, 0xff) // white
  for (let y = 0; y < pixels; y++) raw[y * stride] = 0
  for (let row = 0; row < size; row++) {
    const first = (row + MARGIN) * SCALE * stride
    for (let col = 0; col < size; col++) {
      if (!isDark(row, col)) continue
      const x0 = (col + MARGIN) * SCALE
      for (let x = x0; x < x0 + SCALE; x++) {
        const at = first + 1 + (x >> 3)
        raw[at] = raw[at]! & ~(0x80 >> (x & 7))
      }
    }
    // copyWithin, not Buffer#copy: a native call per row cost more than the copy itself.
    for (let copy = 1; copy < SCALE; copy++)
      raw.copyWithin(first + copy * stride, first, first + stride)
  }
  const header = Buffer.alloc(13)
  header.writeUInt32BE(pixels, 0)
  header.writeUInt32BE(pixels, 4)
  header.set([1, 0, 0, 0, 0], 8) // bit depth 1, grayscale, deflate, no filter, no interlace
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(raw, { level: 2 })),
    chunk('IEND', Buffer.alloc(0)),
  ])
}

/** The PIX QR image as a PNG data URL, ready for an <img src>. */
export async function pixQrDataUrl(copyPaste: string): Promise<string> {
  const { modules } = QRCode.create([{ data: Buffer.from(copyPaste, 'utf8'), mode: 'byte' }], {
    errorCorrectionLevel: 'M',
    maskPattern: 0,
  })
  const png = matrixToPng(modules.size, (row, col) => Boolean(modules.get(row, col)))
  return `data:image/png;base64,${png.toString('base64')}`
}
