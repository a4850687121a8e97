// Checkout sessions: the buyer's partial form, reused for 24 h per (product, e-mail), updated
// as they type, read back to pre-fill the page and to send one cart-recovery e-mail.
import type { Deps } from '../../deps.ts'
import { deriveKey, hmacHex, safeEqual } from '../../kit/crypto.ts'
import { type Executor, type Tx, withTx } from '../../kit/db.ts'
import { Forbidden, NotFound } from '../../kit/errors.ts'
import { uuidv7 } from '../../kit/ids.ts'
import { sellable } from '../catalog/service.ts'
import { checkoutRepo as repo } from './repo.ts'

export const SESSION_REUSE_MS = 24 * 3_600_000
export const SESSIONS_PER_MINUTE = 30

type Ctx = Pick<Deps, 'clock' | 'appSecret'>

/** The token is derived from the id, never stored: the same session always has the same token. */
export function sessionToken(ctx: Pick<Deps, 'appSecret'>, sessionId: string): string {
  return hmacHex(deriveKey(ctx.appSecret, 'checkout-session'), sessionId)
}

export async function openSession(
  tx: Tx,
  ctx: Ctx,
  input: { productId: string; planId?: string | undefined; email: string },
) {
  await sellable(tx, input.productId, input.planId)
  await repo.lockSessionKey(tx, input.productId, input.email)
  const now = ctx.clock.now()
  const existing = await repo.findReusableSession(
    tx,
    input.productId,
    input.email,
    new Date(now.getTime() - SESSION_REUSE_MS),
  )
  if (existing) return { session: existing, created: false }
  const session = await repo.insertSession(tx, {
    id: uuidv7(now.getTime()),
    product_id: input.productId,
    plan_id: input.planId ?? null,
    email: input.email,
    created_at: now,
    updated_at: now,
  })
  return { session, created: true }
}

interface SessionPatch {
  session_token?: string | undefined
  name?: string
  cpf?: string
  phone?: string
  coupon_code?: string
  plan_id?: string
}

/**
 * What the buyer typed so far. The hosted checkout sends it as the buyer types, several times a
 * buyer, buyers who never pay included: the usual patch — the right token, the plan the session
 * already has (or none) — is one statement, committed relaxed (kit/db.ts), since a patch lost in
 * a database crash only makes a recovery e-mail less complete. Anything else (a plan change, a
 * wrong token, an unknown session) takes the checked path, which says why.
 */
export async function patchSession(
  deps: Pick<Deps, 'db' | 'database' | 'clock' | 'appSecret'>,
  id: string,
  input: SessionPatch,
) {
  const { session_token: token, ...fields } = input
  if (token && safeEqual(token, sessionToken(deps, id))) {
    const patched = await repo.updateSessionKeepingPlan(deps.database.relaxed, id, {
      ...fields,
      updated_at: deps.clock.now(),
    })
    if (patched) return patched
  }
  return withTx(deps.db, (tx) => updateSession(tx, deps, id, input))
}

async function updateSession(tx: Tx, ctx: Ctx, id: string, input: SessionPatch) {
  const { session_token: token, ...fields } = input
  const session = await repo.findSession(tx, id)
  if (!session) throw new NotFound('Sessão não encontrada')
  if (!token || !safeEqual(token, sessionToken(ctx, id)))
    throw new Forbidden('Token da sessão inválido')
  // The recovery link pre-selects this plan, so it must be one the product still sells.
  if (fields.plan_id) await sellable(tx, session.product_id, fields.plan_id)
  const updated = await repo.updateSession(tx, id, { ...fields, updated_at: ctx.clock.now() })
  return updated!
}

/** Whether buyers began checking the product out (their sessions keep it from being deleted). */
export const hasSessionsForProduct = (db: Executor, productId: string) =>
  repo.existsForProduct(db, productId)

/** For pre-filling the hosted checkout from `?session=<id>`. */
export const findSession = (db: Executor, id: string) => repo.findSession(db, id)

/**
 * Links the session to the order it became (it then never triggers cart recovery), as a part of
 * the statement that writes the order (kit/statement.ts).
 */
export const convertedPart = (input: { sessionId: string; productId: string; orderId: string }) =>
  repo.convertSessionPart(input.sessionId, input.productId, input.orderId)
