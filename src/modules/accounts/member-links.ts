// The payment e-mail's link into the members area: a signed, expiring token naming the buyer and
// the order, so sending it writes nothing (no row per purchase). Opening it only shows a button
// (web/members.tsx); the button's POST spends it, and only then is a row written: the spent
// token's hash in `login_links`, whose primary key makes a second use impossible.
import type { Deps } from '../../deps.ts'
import { deriveKey, hmacHex, safeEqual, sha256Hex } from '../../kit/crypto.ts'
import type { Executor, Tx } from '../../kit/db.ts'
import { findOrder } from '../orders/service.ts'
import { accountsRepo as repo } from './repo.ts'
import { ACCESS_LINK_MS } from './service.ts'

type Ctx = Pick<Deps, 'clock' | 'appSecret'>

/** Member-link tokens start with this; log-in link tokens (base64url, no dots) never do. */
const PREFIX = 'm1'
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/

const sign = (ctx: Ctx, payload: string) =>
  hmacHex(deriveKey(ctx.appSecret, 'member-link'), payload)

export const isMemberLinkToken = (token: string) => token.startsWith(`${PREFIX}.`)

/** `m1.<buyer id>.<order id>.<expiry, seconds base 36>.<HMAC>`: about 130 characters. */
export function memberLinkToken(
  ctx: Ctx,
  input: { buyerId: string; orderId: string },
  lifetimeMs = ACCESS_LINK_MS,
): string {
  const expires = Math.floor((ctx.clock.now().getTime() + lifetimeMs) / 1000).toString(36)
  const payload = `${PREFIX}.${input.buyerId}.${input.orderId}.${expires}`
  return `${payload}.${sign(ctx, payload)}`
}

/**
 * The members-area URL a buyer's e-mail carries. Without the app secret in `ctx` (a caller typed
 * narrower than Deps) it falls back to the plain page, which offers a new link by e-mail.
 */
export function memberLinkUrl(
  ctx: Pick<Deps, 'clock' | 'config'> & { appSecret?: string },
  order: { id: string; buyer_id: string },
): string {
  const base = `${ctx.config.baseUrl}/members`
  if (!ctx.appSecret) return base
  const token = memberLinkToken(
    { clock: ctx.clock, appSecret: ctx.appSecret },
    {
      buyerId: order.buyer_id,
      orderId: order.id,
    },
  )
  return `${base}/login?token=${token}`
}

interface Claims {
  buyerId: string
  orderId: string
  expiresAt: Date
}

/** The token's claims when its signature holds and it has not expired; null otherwise. */
function verify(ctx: Ctx, token: string): Claims | null {
  const parts = token.split('.')
  if (parts.length !== 5 || parts[0] !== PREFIX) return null
  const [, buyerId, orderId, expires, signature] = parts as [string, string, string, string, string]
  if (!UUID.test(buyerId) || !UUID.test(orderId) || !/^[0-9a-z]{1,10}$/.test(expires)) return null
  if (!safeEqual(sign(ctx, parts.slice(0, 4).join('.')), signature)) return null
  const expiresAt = new Date(Number.parseInt(expires, 36) * 1000)
  if (expiresAt <= ctx.clock.now()) return null
  return { buyerId, orderId, expiresAt }
}

/** Whether the link can still be used: signed, not expired, not spent, the order the buyer's. */
export async function memberLinkIsLive(db: Executor, ctx: Ctx, token: string) {
  const claims = verify(ctx, token)
  if (!claims) return false
  const order = await findOrder(db, claims.orderId)
  if (order?.buyer_id !== claims.buyerId) return false
  return !(await repo.findLoginLink(db, sha256Hex(token)))
}

/** Spends the link once (records its hash); returns the buyer's user id, or null. */
export async function consumeMemberLink(tx: Tx, ctx: Ctx, token: string) {
  if (!(await memberLinkIsLive(tx, ctx, token))) return null
  const claims = verify(ctx, token)!
  const spent = await repo.insertSpentLoginLink(tx, {
    token_hash: sha256Hex(token),
    user_id: claims.buyerId,
    created_at: ctx.clock.now(),
    expires_at: claims.expiresAt,
    used_at: ctx.clock.now(),
  })
  return spent ? claims.buyerId : null
}
