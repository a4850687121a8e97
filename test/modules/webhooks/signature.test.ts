import { createHmac } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import {
  generateWebhookSecret,
  signWebhook,
  verifyServiceSignature,
  verifyStandardWebhook,
} from '../../../src/modules/webhooks/signature.ts'

// Published Standard Webhooks test vector (standard-webhooks libraries' tests).
const VECTOR = {
  secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
  id: 'msg_p5jXN8AQM9LWM0D4loKWxJek',
  timestamp: 1614265330,
  body: '{"test": 2432232314}',
  signature: 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=',
}

describe('webhook signatures', () => {
  it('x-service-signature is sha256= + hex HMAC of the raw body keyed with the secret', () => {
    const secret = generateWebhookSecret()
    const body = '{"event":"order.paid","data":{"amount":97.9}}'
    const headers = signWebhook({ secrets: [secret], id: 'evt_1', timestampSeconds: 1, body })
    const expected = `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`
    expect(headers['x-service-signature']).toBe(expected)
    expect(verifyServiceSignature(secret, body, expected)).toBe(true)
    expect(verifyServiceSignature(secret, `${body} `, expected)).toBe(false)
  })

  it('matches the Standard Webhooks test vector', () => {
    const headers = signWebhook({
      secrets: [VECTOR.secret],
      id: VECTOR.id,
      timestampSeconds: VECTOR.timestamp,
      body: VECTOR.body,
    })
    expect(headers['webhook-signature']).toBe(VECTOR.signature)
    expect(headers['webhook-id']).toBe(VECTOR.id)
    expect(headers['webhook-timestamp']).toBe(String(VECTOR.timestamp))
  })

  it('verifies with the spec algorithm, within the tolerance window only', () => {
    // The receiver side as the Standard Webhooks spec writes it, independently of our signer.
    const key = Buffer.from(VECTOR.secret.slice('whsec_'.length), 'base64')
    const mac = createHmac('sha256', key)
      .update(`${VECTOR.id}.${VECTOR.timestamp}.${VECTOR.body}`)
      .digest('base64')
    expect(`v1,${mac}`).toBe(VECTOR.signature)

    const headers = signWebhook({
      secrets: [VECTOR.secret],
      id: VECTOR.id,
      timestampSeconds: VECTOR.timestamp,
      body: VECTOR.body,
    })
    expect(
      verifyStandardWebhook(VECTOR.secret, headers, VECTOR.body, 300, VECTOR.timestamp + 10),
    ).toBe(true)
    expect(
      verifyStandardWebhook(VECTOR.secret, headers, VECTOR.body, 300, VECTOR.timestamp + 301),
    ).toBe(false)
    expect(
      verifyStandardWebhook(VECTOR.secret, headers, `${VECTOR.body}x`, 300, VECTOR.timestamp),
    ).toBe(false)
  })

  it('signs with every live secret during a rotation', () => {
    const oldSecret = generateWebhookSecret()
    const newSecret = generateWebhookSecret()
    const headers = signWebhook({
      secrets: [newSecret, oldSecret],
      id: 'e',
      timestampSeconds: 100,
      body: '{}',
    })
    expect(headers['webhook-signature']!.split(' ')).toHaveLength(2)
    expect(verifyStandardWebhook(oldSecret, headers, '{}', 300, 100)).toBe(true)
    expect(verifyStandardWebhook(newSecret, headers, '{}', 300, 100)).toBe(true)
    expect(verifyServiceSignature(newSecret, '{}', headers['x-service-signature'])).toBe(true)
  })
})
