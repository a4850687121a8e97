// Security headers on every response, decided in one place (SPEC §15). The checkout collects
// card numbers on our origin and /admin pays withdrawals in one click, so:
// - HTML pages get a CSP that runs only same-origin script files (pages never inline a script;
//   see web/assets.ts), so an injected <script> or on* attribute runs nowhere;
// - every page but the hosted checkout refuses to be framed (clickjacking); the checkout may be
//   embedded in a creator's site, as sales pages are: it acts with no credentials, so a framed
//   copy can do nothing a visit could not;
// - pages and credentialed API answers are never stored by a cache;
// - a URL that carries a capability (`?token=`, `?session=`) is never sent as a Referer.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { SESSION_COOKIE } from './auth.ts'
import { carriesCapability } from './capability-urls.ts'

/**
 * Origins one checkout page adds to its policy: a gateway's card script and its API, and the
 * host of the product's image (an https URL the creator gave; an image cannot run anything).
 */
export interface PageOrigins {
  script: string[]
  connect: string[]
  img?: string[]
}
const pageOrigins = new WeakMap<FastifyReply, PageOrigins>()

/**
 * Lets this checkout page load a gateway's script and call its API (MercadoPago.js tokenizes
 * cards in the browser). Only the hosted checkout may, and only for the reply that asks: every
 * other page keeps `script-src 'self'`.
 */
export function allowGatewayOrigins(reply: FastifyReply, origins: PageOrigins): void {
  pageOrigins.set(reply, origins)
}

// Styles stay inline (one request per page, and the dev mailbox previews e-mails' style
// attributes): scripts are what the policy must stop. data: images are the PIX QR and boleto.
const pagePolicy = (extra: PageOrigins = { script: [], connect: [] }) =>
  [
    "default-src 'self'",
    ["script-src 'self'", ...extra.script].join(' '),
    "style-src 'self' 'unsafe-inline'",
    ["img-src 'self' data:", ...(extra.img ?? [])].join(' '),
    ["connect-src 'self'", ...extra.connect].join(' '),
    "form-action 'self'",
    "base-uri 'self'",
    "object-src 'none'",
  ].join('; ')
const POLICY = {
  page: `${pagePolicy()}; frame-ancestors 'none'`,
  embeddable: (extra?: PageOrigins) => `${pagePolicy(extra)}; frame-ancestors *`,
  // JSON and files: nothing in them may run or load anything, even if a browser rendered them.
  other: "default-src 'none'; frame-ancestors 'none'",
}
const HSTS = 'max-age=31536000'

const isHtml = (reply: FastifyReply) =>
  String(reply.getHeader('content-type')).startsWith('text/html')
const isCheckoutPage = (request: FastifyRequest) =>
  request.routeOptions.url?.startsWith('/checkout/') === true

const carriesCredentials = (request: FastifyRequest) =>
  Boolean(request.headers.authorization || request.cookies?.[SESSION_COOKIE])

export function registerSecurityHeaders(app: FastifyInstance, config: { baseUrl: string }): void {
  app.addHook('onSend', async (request, reply, payload) => {
    const page = isHtml(reply)
    const embeddable = page && isCheckoutPage(request)
    reply.header('x-content-type-options', 'nosniff')
    reply.header(
      'content-security-policy',
      embeddable ? POLICY.embeddable(pageOrigins.get(reply)) : page ? POLICY.page : POLICY.other,
    )
    if (!embeddable) reply.header('x-frame-options', 'DENY')
    if ((page || carriesCredentials(request)) && !reply.hasHeader('cache-control'))
      reply.header('cache-control', 'no-store')
    reply.header(
      'referrer-policy',
      carriesCapability(request.url) ? 'no-referrer' : 'strict-origin-when-cross-origin',
    )
    if (config.baseUrl.startsWith('https://')) reply.header('strict-transport-security', HSTS)
    return payload
  })
}
