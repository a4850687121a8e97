// SSRF guard: webhook URLs must be https and resolve only to public addresses. Plain http to
// loopback is allowed with ALLOW_HTTP_WEBHOOKS=1 (development and tests). Checked at creation
// and again at connect time by the sender's lookup, so a DNS change cannot sneak past.
// node's BlockList judges an IPv4-mapped IPv6 address (::ffff:a.b.c.d, any spelling) by the
// IPv4 rules, so only the other IPv6 forms that carry an IPv4 address need rules of their own.
import { promises as dns, lookup as dnsLookup } from 'node:dns'
import { BlockList, isIP, type LookupFunction } from 'node:net'

/** IPv4 ranges no webhook may reach (RFC 6890 special-purpose, minus the globally reachable). */
const BLOCKED_V4: [string, number][] = [
  ['0.0.0.0', 8], // "this network"
  ['10.0.0.0', 8],
  ['100.64.0.0', 10], // CGNAT
  ['127.0.0.0', 8],
  ['169.254.0.0', 16], // link-local, cloud metadata
  ['172.16.0.0', 12],
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.0.2.0', 24], // documentation
  ['192.88.99.0', 24], // 6to4 relay anycast
  ['192.168.0.0', 16],
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24], // documentation
  ['203.0.113.0', 24], // documentation
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, and 255.255.255.255 broadcast
]

/** IPv6 ranges refused whole: none is a public unicast destination a creator would run. */
const BLOCKED_V6: [string, number][] = [
  ['::', 96], // ::, ::1 and the deprecated IPv4-compatible ::a.b.c.d
  ['::ffff:0:0:0', 96], // IPv4-translated (SIIT)
  ['64:ff9b:1::', 48], // local-use NAT64
  ['100::', 64], // discard
  ['2001::', 23], // IETF protocol assignments: Teredo 2001::/32, benchmarking, ORCHID
  ['2001:db8::', 32], // documentation
  ['2002::', 16], // 6to4: the embedded IPv4 may be private
  ['3fff::', 20], // documentation
  ['fc00::', 7], // unique local
  ['fe80::', 10], // link-local
  ['fec0::', 10], // site-local (deprecated)
  ['ff00::', 8], // multicast
]

const blocked = new BlockList()
for (const [net, prefix] of BLOCKED_V4) {
  blocked.addSubnet(net, prefix, 'ipv4')
  // NAT64 (64:ff9b::/96) reaches the IPv4 address in its last 32 bits: a DNS64 resolver on an
  // IPv6-only host answers it for public names, so only the embedded blocked ranges are refused.
  blocked.addSubnet(`64:ff9b::${net}`, 96 + prefix, 'ipv6')
}
for (const [net, prefix] of BLOCKED_V6) blocked.addSubnet(net, prefix, 'ipv6')

const loopback = new BlockList()
loopback.addSubnet('127.0.0.0', 8, 'ipv4')
loopback.addAddress('::1', 'ipv6')

/** The address with any IPv6 zone (`fe80::1%eth0`) dropped, and its family; null if not an IP. */
function parse(address: string): { address: string; family: 'ipv4' | 'ipv6' } | null {
  const bare = address.replace(/%.*$/, '')
  const version = isIP(bare)
  if (version === 0) return null
  return { address: bare, family: version === 6 ? 'ipv6' : 'ipv4' }
}

export function isLoopbackAddress(address: string): boolean {
  const ip = parse(address)
  return ip !== null && loopback.check(ip.address, ip.family)
}

/** True when a webhook may be sent to this resolved address. */
export function isAllowedAddress(address: string, allowLoopback: boolean): boolean {
  const ip = parse(address)
  if (!ip) return false
  if (allowLoopback && loopback.check(ip.address, ip.family)) return true
  return !blocked.check(ip.address, ip.family)
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

/** Resolves every address of a host name, as dns.lookup with `all: true` does. */
export type Resolver = (
  hostname: string,
  options: object,
  callback: (
    error: NodeJS.ErrnoException | null,
    addresses: { address: string; family: number }[],
  ) => void,
) => void

const systemResolver: Resolver = (hostname, options, callback) =>
  dnsLookup(hostname, { ...options, all: true }, callback)

/**
 * A `lookup` for the sender's agents: the connection goes only to an address it approves, so a
 * name that resolves elsewhere after creation is still refused. `resolve` is the system's
 * resolver; tests pass answers a local /etc/hosts cannot give (IPv6).
 */
export function guardedLookup(
  allowLoopback: boolean,
  resolve: Resolver = systemResolver,
): LookupFunction {
  return (hostname, options, callback) => {
    resolve(hostname, options, (error, list) => {
      if (error) return callback(error, '', 0)
      const refused = list.find((a) => !isAllowedAddress(a.address, allowLoopback))
      if (refused || !list.length) {
        const denied = Object.assign(
          new Error(`address ${refused?.address ?? '(none)'} is not allowed`),
          { code: 'EADDRNOTALLOWED' },
        )
        return callback(denied, '', 0)
      }
      if ((options as { all?: boolean }).all)
        return (callback as (e: null, a: typeof list) => void)(null, list)
      const first = list[0]!
      callback(null, first.address, first.family)
    })
  }
}
