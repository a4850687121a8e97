// SSRF guard: webhook URLs must be https and resolve only to public addresses. Plain http to
// loopback is allowed with ALLOW_HTTP_WEBHOOKS=1 (development and tests). Checked at creation
// and again at connect time by the sender's lookup, so a DNS change cannot sneak past.
import { promises as dns, lookup as dnsLookup } from 'node:dns'
import { BlockList, isIP, type LookupFunction } from 'node:net'

const blocked = new BlockList()
for (const [net, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10], // CGNAT
  ['127.0.0.0', 8],
  ['169.254.0.0', 16], // link-local, cloud metadata
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  blocked.addSubnet(net, prefix, 'ipv4')
}
for (const [net, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7], // unique local
  ['fe80::', 10], // link-local
  ['ff00::', 8],
  ['64:ff9b::', 96], // NAT64 can reach private IPv4
] as const) {
  blocked.addSubnet(net, prefix, 'ipv6')
}

const loopback = new BlockList()
loopback.addSubnet('127.0.0.0', 8, 'ipv4')
loopback.addAddress('::1', 'ipv6')

/** `::ffff:10.0.0.1` is 10.0.0.1: judge IPv4-mapped IPv6 as the IPv4 it is. */
function unmap(address: string): { address: string; family: 'ipv4' | 'ipv6' } {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)
  if (mapped) return { address: mapped[1]!, family: 'ipv4' }
  return { address, family: isIP(address) === 6 ? 'ipv6' : 'ipv4' }
}

export function isLoopbackAddress(address: string): boolean {
  const { address: a, family } = unmap(address)
  return loopback.check(a, family)
}

/** True when a webhook may be sent to this resolved address. */
export function isAllowedAddress(address: string, allowLoopback: boolean): boolean {
  const { address: a, family } = unmap(address)
  if (allowLoopback && loopback.check(a, family)) return true
  return !blocked.check(a, family)
}

export type UrlCheck = { ok: true } | { ok: false; reason: string }

/** Protocol and resolved-address checks for a webhook URL. */
export async function checkWebhookUrl(url: string, allowHttpLoopback: boolean): Promise<UrlCheck> {
  let target: URL
  try {
    target = new URL(url)
  } catch {
    return { ok: false, reason: 'URL inválida' }
  }
  if (target.username || target.password)
    return { ok: false, reason: 'A URL não pode conter usuário e senha' }
  if (target.protocol !== 'https:' && target.protocol !== 'http:') {
    return { ok: false, reason: 'A URL do webhook deve usar https' }
  }
  const host = target.hostname.replace(/^\[|\]$/g, '')
  let addresses: string[]
  try {
    addresses = isIP(host)
      ? [host]
      : (await dns.lookup(host, { all: true, verbatim: true })).map((a) => a.address)
  } catch {
    return { ok: false, reason: 'Não foi possível resolver o endereço do webhook' }
  }
  const allLoopback = addresses.every(isLoopbackAddress)
  if (target.protocol === 'http:' && !(allowHttpLoopback && allLoopback)) {
    return { ok: false, reason: 'A URL do webhook deve usar https' }
  }
  if (!addresses.every((a) => isAllowedAddress(a, allowHttpLoopback))) {
    return { ok: false, reason: 'A URL do webhook aponta para um endereço privado ou reservado' }
  }
  return { ok: true }
}

/** A `lookup` for the sender's agents: refuses to connect to a disallowed address. */
export function guardedLookup(allowLoopback: boolean): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, '', 0)
      const list = addresses as unknown as { address: string; family: number }[]
      const refused = list.find((a) => !isAllowedAddress(a.address, allowLoopback))
      if (refused) {
        const denied = Object.assign(new Error(`address ${refused.address} is not allowed`), {
          code: 'EADDRNOTALLOWED',
        })
        return callback(denied, '', 0)
      }
      if ((options as { all?: boolean }).all)
        return (callback as (e: null, a: typeof list) => void)(null, list)
      const first = list[0]!
      callback(null, first.address, first.family)
    })
  }
}
