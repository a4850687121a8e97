import { describe, expect, it } from 'vitest'
import { checkWebhookUrl, isAllowedAddress } from '../../../src/modules/webhooks/url-guard.ts'

describe('SSRF guard', () => {
  it('refuses private, loopback, link-local, CGNAT, metadata and mapped addresses', () => {
    for (const address of [
      '10.0.0.1',
      '192.168.1.1',
      '172.16.5.4',
      '127.0.0.1',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '::1',
      'fe80::1',
      'fc00::1',
      '::ffff:127.0.0.1',
      '::ffff:10.1.2.3',
    ]) {
      expect(isAllowedAddress(address, false), address).toBe(false)
    }
  })

  it('accepts public addresses, and loopback only when http-to-loopback is allowed', () => {
    expect(isAllowedAddress('93.184.216.34', false)).toBe(true)
    expect(isAllowedAddress('2606:2800:220:1:248:1893:25c8:1946', false)).toBe(true)
    expect(isAllowedAddress('127.0.0.1', true)).toBe(true)
    expect(isAllowedAddress('::ffff:127.0.0.1', true)).toBe(true)
    expect(isAllowedAddress('10.0.0.1', true)).toBe(false)
  })

  it('refuses a host name that resolves to 127.0.0.1 while http-to-loopback is off', async () => {
    expect(await checkWebhookUrl('https://localhost/hooks', false)).toMatchObject({ ok: false })
    expect(await checkWebhookUrl('http://localhost:4000/hooks', false)).toMatchObject({ ok: false })
    expect(await checkWebhookUrl('http://localhost:4000/hooks', true)).toEqual({ ok: true })
    expect(await checkWebhookUrl('https://user:pw@127.0.0.1/', true)).toMatchObject({ ok: false })
  })
})
