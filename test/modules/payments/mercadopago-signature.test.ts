// The adapter's x-signature check agrees with the official SDK's WebhookSignatureValidator
// (mercadopago 3.6.1): whatever one accepts the other accepts, whatever one refuses the other
// refuses. Plus freshness and the topics the adapter does not read.
import fc from 'fast-check'
import { WebhookSignatureValidator } from 'mercadopago'
import { describe, expect, it } from 'vitest'
import { hmacHex } from '../../../src/kit/crypto.ts'
import { createMercadoPagoGateway } from '../../../src/modules/payments/gateways/mercadopago/index.ts'
import {
  manifestOf,
  SIGNATURE_TOLERANCE_MS,
  verifySignature,
} from '../../../src/modules/payments/gateways/mercadopago/signature.ts'

const sdkAccepts = (o: {
  xSignature: string
  xRequestId: string | undefined
  dataId: string | undefined
  secret: string
}) => {
  try {
    WebhookSignatureValidator.validate(o)
    return true
  } catch {
    return false
  }
}

const notice = fc.record({
  // Payment ids are digits; the SDK 3.6.1 does not lower-case, so letters are left out here.
  dataId: fc.option(fc.stringMatching(/^\d{1,19}$/), { nil: undefined }),
  xRequestId: fc.option(fc.uuid(), { nil: undefined }),
  tsSeconds: fc.integer({ min: 1_600_000_000, max: 2_000_000_000 }),
  secret: fc.stringMatching(/^[a-f0-9]{16,64}$/),
})

describe('x-signature, as the official SDK checks it', () => {
  it('accepts what the SDK accepts: our manifest signed with the secret', () => {
    fc.assert(
      fc.property(notice, ({ dataId, xRequestId, tsSeconds, secret }) => {
        const ts = String(tsSeconds)
        const v1 = hmacHex(secret, manifestOf({ dataId, xRequestId }, ts))
        const xSignature = `ts=${ts},v1=${v1}`
        expect(sdkAccepts({ xSignature, xRequestId, dataId, secret })).toBe(true)
        const now = new Date(tsSeconds * 1000)
        expect(verifySignature({ xSignature, xRequestId, dataId }, secret, now)).toBe(true)
      }),
    )
  })

  it('refuses what the SDK refuses: another secret, id, request id or hash', () => {
    fc.assert(
      fc.property(
        notice,
        fc.constantFrom('secret', 'dataId', 'requestId', 'hash'),
        ({ dataId, xRequestId, tsSeconds, secret }, change) => {
          const ts = String(tsSeconds)
          const signedWith = change === 'secret' ? `${secret}x` : secret
          let v1 = hmacHex(signedWith, manifestOf({ dataId, xRequestId }, ts))
          if (change === 'hash') v1 = `${v1.slice(0, -1)}${v1.endsWith('0') ? '1' : '0'}`
          const sent = {
            xSignature: `ts=${ts},v1=${v1}`,
            dataId: change === 'dataId' ? `${dataId ?? ''}7` : dataId,
            xRequestId: change === 'requestId' ? `${xRequestId ?? ''}z` : xRequestId,
          }
          expect(sdkAccepts({ ...sent, secret })).toBe(false)
          expect(verifySignature(sent, secret, new Date(tsSeconds * 1000))).toBe(false)
        },
      ),
    )
  })

  it('refuses a missing or malformed header, as the SDK does', () => {
    const secret = 'a'.repeat(32)
    for (const xSignature of ['', 'v1=abc', 'ts=123', 'ts=abc,v1=00', 'garbage']) {
      expect(sdkAccepts({ xSignature, dataId: '1', xRequestId: undefined, secret })).toBe(false)
      expect(
        verifySignature({ xSignature, dataId: '1', xRequestId: undefined }, secret, new Date()),
      ).toBe(false)
    }
  })

  it(`refuses a signature older or newer than ${SIGNATURE_TOLERANCE_MS / 60_000} minutes, in seconds or milliseconds`, () => {
    const secret = 'b'.repeat(32)
    const now = new Date('2026-11-24T12:00:00Z')
    const signedAt = (at: number, unit: 's' | 'ms') => {
      const ts = String(unit === 's' ? Math.floor(at / 1000) : at)
      const v1 = hmacHex(secret, manifestOf({ dataId: '42', xRequestId: 'r' }, ts))
      return { xSignature: `ts=${ts},v1=${v1}`, dataId: '42', xRequestId: 'r' }
    }
    for (const unit of ['s', 'ms'] as const) {
      const t = now.getTime()
      expect(verifySignature(signedAt(t - 60_000, unit), secret, now)).toBe(true)
      expect(verifySignature(signedAt(t + 60_000, unit), secret, now)).toBe(true)
      expect(verifySignature(signedAt(t - SIGNATURE_TOLERANCE_MS - 1000, unit), secret, now)).toBe(
        false,
      )
      expect(verifySignature(signedAt(t + SIGNATURE_TOLERANCE_MS + 1000, unit), secret, now)).toBe(
        false,
      )
    }
  })
})

describe('notifications the adapter does not read', () => {
  const secret = 'c'.repeat(32)
  const gateway = createMercadoPagoGateway({
    // Nothing is read back for these: no API needs to answer.
    config: {
      baseUrl: 'http://127.0.0.1:1',
      mercadoPago: {
        apiUrl: 'http://127.0.0.1:1',
        accessToken: 't',
        publicKey: 'p',
        webhookSecret: secret,
      },
    },
    clock: { now: () => new Date() },
  })
  const signed = (dataId: string, requestId: string) => {
    const ts = String(Math.floor(Date.now() / 1000))
    return {
      'x-request-id': requestId,
      'x-signature': `ts=${ts},v1=${hmacHex(secret, manifestOf({ dataId, xRequestId: requestId }, ts))}`,
    }
  }

  it('ignores another topic, signed, under its own notification id', async () => {
    const reading = await gateway.readCallback({
      rawBody: Buffer.from(JSON.stringify({ id: 77, type: 'merchant_order', data: { id: '5' } })),
      headers: signed('5', 'req-1'),
      query: { 'data.id': '5', type: 'merchant_order' },
    })
    expect(reading).toEqual({
      kind: 'ignored',
      eventId: '77',
      why: 'Mercado Pago topic merchant_order',
    })
  })

  it('refuses a legacy IPN copy (its signature cannot be verified)', async () => {
    const reading = await gateway.readCallback({
      rawBody: Buffer.from(JSON.stringify({ resource: '5', topic: 'payment' })),
      headers: { 'x-signature': `ts=${Math.floor(Date.now() / 1000)},v1=${'0'.repeat(64)}` },
      query: { topic: 'payment', id: '5' },
    })
    expect(reading).toBeNull()
  })
})
