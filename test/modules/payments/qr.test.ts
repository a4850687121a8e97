// The PIX QR image with its fixed choices (byte mode, mask 0, zlib level 2) stays a PNG
// that a QR reader decodes, whatever the code's length (and so the QR version).
import jsQRModule from 'jsqr'
import { PNG } from 'pngjs'
import { describe, expect, it } from 'vitest'
import { pixQrDataUrl } from '../../../src/modules/payments/qr.ts'

// jsqr is CommonJS typed with only a `default`: at run time the import is the function itself.
const jsQR = jsQRModule as unknown as typeof jsQRModule.default

function decode(code: string) {
  const url = pixQrDataUrl(code)
  const png = PNG.sync.read(Buffer.from(url.split(',')[1]!, 'base64'))
  return jsQR(new Uint8ClampedArray(png.data), png.width, png.height)?.data
}

describe('PIX QR image', () => {
  it.each([
    ['a short static code', '00020126330014br.gov.bcb.pix0111123456789015204000053039865802BR'],
    [
      'a dynamic code with a long location',
      `00020101021226990014br.gov.bcb.pix2577pix.example.com.br/qr/v3/at/${'a1b2c3d4'.repeat(6)}5204000053039865406147.905802BR5915VITRINE SANDBOX6009SAO PAULO62070503***6304ABCD`,
    ],
    ['a name with accents (UTF-8 bytes)', '0002012658BR5913JOÃO DA SILVA6009SÃO PAULO6304ABCD'],
  ])('decodes back to %s', (_name, code) => {
    expect(decode(code)).toBe(code)
  })
})
