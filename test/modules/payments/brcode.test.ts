import jsQRModule from 'jsqr'
import { PNG } from 'pngjs'
import { describe, expect, it } from 'vitest'
import {
  buildPixCopyPaste,
  crc16ccitt,
  parsePixCopyPaste,
} from '../../../src/modules/payments/brcode.ts'
import { pixQrDataUrl } from '../../../src/modules/payments/qr.ts'

// jsqr is CommonJS typed with only a `default`: at run time the import is the function itself.
const jsQR = jsQRModule as unknown as typeof jsQRModule.default

// Static BR Code example of Banco Central's "Manual de Padrões para Iniciação do Pix".
const BCB_STATIC =
  '00020126580014br.gov.bcb.pix0136123e4567-e12b-12d1-a456-4266554400005204000053039865802BR5913Fulano de Tal6008BRASILIA62070503***63041D3D'

describe('CRC16/CCITT-FALSE', () => {
  it('matches the standard check value and the Banco Central example', () => {
    expect(crc16ccitt('123456789')).toBe('29B1')
    expect(crc16ccitt(BCB_STATIC.slice(0, -4))).toBe('1D3D')
  })
})

describe('BR Code', () => {
  it('reproduces the Banco Central static example byte for byte', () => {
    const code = buildPixCopyPaste({
      pixKey: '123e4567-e12b-12d1-a456-426655440000',
      merchantName: 'Fulano de Tal',
      merchantCity: 'BRASILIA',
    })
    expect(code).toBe(BCB_STATIC)
  })

  it('carries amount and txid, and parses back with a valid CRC', () => {
    const code = buildPixCopyPaste({
      pixKey: 'pix@example.com',
      merchantName: 'Loja São João',
      merchantCity: 'São Paulo',
      amountCents: 9790,
      txid: 'sbx0192abc',
    })
    const parsed = parsePixCopyPaste(code)
    expect(parsed.crcValid).toBe(true)
    expect(parsed.fields['54']).toBe('97.90')
    expect(parsed.fields['53']).toBe('986')
    expect(parsed.fields['59']).toBe('Loja Sao Joao')
    expect(parsed.fields['60']).toBe('Sao Paulo')
    expect(parsed.merchantAccount).toEqual({ '00': 'br.gov.bcb.pix', '01': 'pix@example.com' })
    expect(parsed.additionalData['05']).toBe('sbx0192abc')
  })

  it('detects a tampered code', () => {
    const tampered = BCB_STATIC.replace('Fulano', 'Fulana')
    expect(parsePixCopyPaste(tampered).crcValid).toBe(false)
  })

  it('cuts names at 25 and cities at 15 characters; refuses bad txids', () => {
    const code = buildPixCopyPaste({
      pixKey: 'k',
      merchantName: 'Um nome de comerciante muito comprido',
      merchantCity: 'Cidade com nome longo demais',
    })
    const parsed = parsePixCopyPaste(code)
    expect(parsed.fields['59']).toHaveLength(25)
    expect(parsed.fields['60']).toHaveLength(15)
    expect(() =>
      buildPixCopyPaste({ pixKey: 'k', merchantName: 'a', merchantCity: 'b', txid: 'tem espaço' }),
    ).toThrow()
    expect(() =>
      buildPixCopyPaste({
        pixKey: 'k',
        merchantName: 'a',
        merchantCity: 'b',
        txid: 'x'.repeat(26),
      }),
    ).toThrow()
  })

  it('renders a PNG QR image that a QR reader decodes back to the code', async () => {
    const code = buildPixCopyPaste({
      pixKey: '7d9f0335-8dcc-4054-9bf9-0dbd61d36690',
      merchantName: 'VITRINE SANDBOX',
      merchantCity: 'SAO PAULO',
      amountCents: 14790,
      txid: 'sbx01a203f7ccec7b01a326d2',
    })
    const url = pixQrDataUrl(code)
    expect(url).toMatch(/^data:image\/png;base64,/)
    const png = PNG.sync.read(Buffer.from(url.split(',')[1]!, 'base64'))
    expect(png.width).toBeGreaterThanOrEqual(250)
    const decoded = jsQR(new Uint8ClampedArray(png.data), png.width, png.height)
    expect(decoded?.data).toBe(code)
  })
})
