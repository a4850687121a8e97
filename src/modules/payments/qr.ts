// The PIX QR image. `qrcode` computes the matrix; the PNG is written here as a 1-bit grayscale
// image compressed by Node's native zlib — ~20× cheaper than qrcode's pure-JS PNG encoder,
// which alone cost most of a checkout's CPU (see BENCHMARKS.md).
import { crc32, deflateSync } from 'node:zlib'
import QRCode from 'qrcode'

const SCALE = 6 // pixels per module: ~300 px for a typical PIX code
const MARGIN = 2 // quiet zone, in modules

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4)
  length.writeUInt32BE(data.length)
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data])
  const crc = Buffer.alloc(4)
  crc.writeUInt32BE(crc32(body))
  return Buffer.concat([length, body, crc])
}

/** A black-on-white PNG of a square boolean matrix (true = dark). */
export function matrixToPng(size: number, isDark: (row: number, col: number) => boolean): Buffer {
  const pixels = (size + 2 * MARGIN) * SCALE
  const rowBytes = Math.ceil(pixels / 8)
  const raw = Buffer.alloc((rowBytes + 1) * pixels, 0xff) // white; filter byte 0 set below
  for (let y = 0; y < pixels; y++) {
    const rowStart = y * (rowBytes + 1)
    raw[rowStart] = 0
    const row = Math.floor(y / SCALE) - MARGIN
    for (let x = 0; x < pixels; x++) {
      const col = Math.floor(x / SCALE) - MARGIN
      if (row < 0 || col < 0 || row >= size || col >= size || !isDark(row, col)) continue
      const at = rowStart + 1 + (x >> 3)
      raw[at] = raw[at]! & ~(0x80 >> (x & 7))
    }
  }
  const header = Buffer.alloc(13)
  header.writeUInt32BE(pixels, 0)
  header.writeUInt32BE(pixels, 4)
  header.set([1, 0, 0, 0, 0], 8) // bit depth 1, grayscale, deflate, no filter, no interlace
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ])
}

/** The PIX QR image as a PNG data URL, ready for an <img src>. */
export async function pixQrDataUrl(copyPaste: string): Promise<string> {
  const { modules } = QRCode.create(copyPaste, { errorCorrectionLevel: 'M' })
  const png = matrixToPng(modules.size, (row, col) => Boolean(modules.get(row, col)))
  return `data:image/png;base64,${png.toString('base64')}`
}
