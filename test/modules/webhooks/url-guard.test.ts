import { describe, expect, it } from 'vitest'
import { createWebhookSender } from '../../../src/modules/webhooks/sender.ts'
import {
  checkWebhookUrl,
  guardedLookup,
  isAllowedAddress,
  type Resolver,
} from '../../../src/modules/webhooks/url-guard.ts'
import { startReceiver } from '../../setup/receiver.ts'

describe('SSRF guard', () => {
  it.each([
    ['10.0.0.1', 'private'],
    ['172.16.5.4', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['127.0.0.1', 'loopback'],
    ['127.8.9.10', 'loopback'],
    ['169.254.169.254', 'cloud metadata'],
    ['100.64.0.1', 'CGNAT'],
    ['100.127.255.254', 'CGNAT'],
    ['0.0.0.0', 'this network'],
    ['0.1.2.3', 'this network'],
    ['192.0.0.8', 'IETF protocol assignments'],
    ['192.0.2.10', 'documentation TEST-NET-1'],
    ['198.51.100.7', 'documentation TEST-NET-2'],
    ['203.0.113.99', 'documentation TEST-NET-3'],
    ['192.88.99.1', '6to4 relay anycast'],
    ['198.18.0.1', 'benchmarking'],
    ['198.19.255.254', 'benchmarking'],
    ['224.0.0.1', 'multicast'],
    ['239.255.255.250', 'multicast (SSDP)'],
    ['240.0.0.1', 'reserved'],
    ['255.255.255.255', 'broadcast'],
    ['::', 'unspecified'],
    ['::1', 'loopback'],
    ['0:0:0:0:0:0:0:1', 'loopback, long form'],
    ['::127.0.0.1', 'IPv4-compatible loopback'],
    ['::a00:1', 'IPv4-compatible 10.0.0.1, hex'],
    ['::8.8.8.8', 'IPv4-compatible (deprecated), even public'],
    ['::ffff:127.0.0.1', 'IPv4-mapped loopback'],
    ['::ffff:7f00:1', 'IPv4-mapped loopback, hex'],
    ['::ffff:10.1.2.3', 'IPv4-mapped private'],
    ['::ffff:a9fe:a9fe', 'IPv4-mapped metadata, hex'],
    ['0:0:0:0:0:ffff:192.168.0.1', 'IPv4-mapped private, long form'],
    ['::ffff:0:10.0.0.1', 'IPv4-translated'],
    ['::ffff:0:808:808', 'IPv4-translated, even public'],
    ['64:ff9b::10.0.0.1', 'NAT64 of a private address'],
    ['64:ff9b::7f00:1', 'NAT64 of loopback, hex'],
    ['64:ff9b::169.254.169.254', 'NAT64 of metadata'],
    ['64:ff9b:1::8.8.8.8', 'local-use NAT64'],
    ['2002:7f00:1::', '6to4 of loopback'],
    ['2002:808:808::1', '6to4, even public'],
    ['2001:0:4136:e378:8000:63bf:3fff:fdd2', 'Teredo'],
    ['2001:2::1', 'benchmarking'],
    ['100::1', 'discard'],
    ['2001:db8::1', 'documentation'],
    ['3fff::1', 'documentation (RFC 9637)'],
    ['fc00::1', 'unique local'],
    ['fd12:3456::1', 'unique local'],
    ['fe80::1', 'link-local'],
    ['fe80::1%eth0', 'link-local with a zone'],
    ['fec0::1', 'site-local'],
    ['ff02::1', 'multicast'],
    ['not-an-ip', 'not an address'],
    ['', 'empty'],
  ])('refuses %s (%s)', (address) => {
    expect(isAllowedAddress(address, false)).toBe(false)
    // Allowing http to loopback never opens anything but loopback.
    if (!/^(127\.|::1$|::ffff:(127\.|7f00:)|0:0:0:0:0:0:0:1$)/.test(address)) {
      expect(isAllowedAddress(address, true)).toBe(false)
    }
  })

  it.each([
    '93.184.216.34',
    '8.8.8.8',
    '1.1.1.1',
    '172.32.0.1', // just outside 172.16.0.0/12
    '100.128.0.1', // just outside CGNAT
    '198.20.0.1', // just outside benchmarking
    '2606:2800:220:1:248:1893:25c8:1946',
    '2a00:1450:4001:81c::200e',
    '::ffff:8.8.8.8', // IPv4-mapped public: judged as 8.8.8.8
    '64:ff9b::8.8.8.8', // NAT64 of a public address (DNS64 on an IPv6-only host)
    '64:ff9b::5db8:d822',
  ])('accepts the public address %s', (address) => {
    expect(isAllowedAddress(address, false)).toBe(true)
  })

  it('accepts loopback only when http-to-loopback is allowed', () => {
    expect(isAllowedAddress('127.0.0.1', true)).toBe(true)
    expect(isAllowedAddress('::1', true)).toBe(true)
    expect(isAllowedAddress('::ffff:127.0.0.1', true)).toBe(true)
    expect(isAllowedAddress('10.0.0.1', true)).toBe(false)
    expect(isAllowedAddress('64:ff9b::127.0.0.1', true)).toBe(false)
  })

  it('refuses a host name that resolves to 127.0.0.1 while http-to-loopback is off', async () => {
    expect(await checkWebhookUrl('https://localhost/hooks', false)).toMatchObject({ ok: false })
    expect(await checkWebhookUrl('http://localhost:4000/hooks', false)).toMatchObject({ ok: false })
    expect(await checkWebhookUrl('http://localhost:4000/hooks', true)).toEqual({ ok: true })
    expect(await checkWebhookUrl('https://user:pw@127.0.0.1/', true)).toMatchObject({ ok: false })
  })

  it('refuses IP literals in every spelling the URL parser accepts', async () => {
    for (const url of [
      'https://[::1]/h',
      'https://[::ffff:7f00:1]/h',
      'https://[64:ff9b::a00:1]/h',
      'https://[2002:a00:1::]/h',
      'https://[fd00::1]/h',
      'https://0x7f.1/h', // 127.0.0.1
      'https://2130706433/h', // 127.0.0.1
      'https://0177.0.0.1/h', // 127.0.0.1, octal
      'https://10.1/h', // 10.0.0.1
    ]) {
      expect(await checkWebhookUrl(url, false), url).toMatchObject({
        ok: false,
        reason: 'A URL do webhook aponta para um endereço privado ou reservado',
      })
    }
    expect(await checkWebhookUrl('https://[2606:4700:4700::1111]/h', false)).toEqual({ ok: true })
  })

  it('the sender connects through the guard: a name answering a private IPv6 address is refused at send time', async () => {
    const receiver = await startReceiver(() => 200, { host: '::1' })
    // A resolver standing in for DNS that now answers ::1 (or a ULA beside a public address).
    const answers: Record<string, { address: string; family: number }[]> = {
      'loop.example': [{ address: '::1', family: 6 }],
      'mixed.example': [
        { address: '2606:4700:4700::1111', family: 6 },
        { address: 'fd00::1', family: 6 },
      ],
    }
    const resolver: Resolver = (hostname, _options, callback) => callback(null, answers[hostname]!)
    const send = async (allowLoopback: boolean, host: string) => {
      const sender = createWebhookSender({
        timeoutMs: 2_000,
        lookup: guardedLookup(allowLoopback, resolver),
      })
      try {
        return await sender.send(`http://${host}:${receiver.port}/hooks`, '{}', {})
      } finally {
        sender.close()
      }
    }
    try {
      expect(await send(false, 'loop.example')).toMatchObject({
        ok: false,
        error: 'EADDRNOTALLOWED',
      })
      expect(await send(true, 'mixed.example')).toMatchObject({ error: 'EADDRNOTALLOWED' })
      expect(receiver.received).toHaveLength(0)
      // The same name with loopback allowed reaches the receiver: the refusal was the guard's.
      expect(await send(true, 'loop.example')).toMatchObject({ ok: true, statusCode: 200 })
      expect(receiver.received).toHaveLength(1)
    } finally {
      await receiver.close()
    }
  })
})
