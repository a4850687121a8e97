// The PIX key on a user's profile (SPEC §9): set by the user, verified or rejected by a
// platform admin. A changed key waits for verification again; the same key again changes
// nothing. Withdrawals go only to a verified key.
import type { Clock } from '../../kit/clock.ts'
import type { Executor, Tx } from '../../kit/db.ts'
import type { PixKeyType } from '../../kit/db-schema.ts'
import { BadRequest, Forbidden, NotFound } from '../../kit/errors.ts'
import { pageWindow, toPage } from '../../kit/http/pagination.ts'
import { iso } from '../../kit/http/schemas.ts'
import { findUser } from '../accounts/service.ts'
import { maskPixKey, normalizePixKey } from './pix-key.ts'
import { type PixKeyRow, payoutsRepo as repo } from './repo.ts'
import type { PixKeyListQuery } from './schema.ts'

type Ctx = { clock: Clock }

export const NO_PIX_KEY = 'Cadastre uma chave Pix antes de solicitar saque'
export const PIX_KEY_PENDING = 'Sua chave Pix está aguardando verificação'
export const pixKeyRejected = (reason: string) => `Sua chave Pix foi rejeitada: ${reason}`
const PIX_KEY_NOT_FOUND = 'Este usuário não tem chave Pix cadastrada'

export async function setPixKey(
  tx: Tx,
  ctx: Ctx,
  userId: string,
  input: { pix_key: string; pix_key_type: PixKeyType },
) {
  const normalized = normalizePixKey(input.pix_key_type, input.pix_key)
  if ('error' in normalized) throw new BadRequest(normalized.error)
  const current = await repo.findPixKey(tx, userId)
  const same = current?.pix_key === normalized.key && current.pix_key_type === input.pix_key_type
  const row = same
    ? current
    : await repo.upsertPixKey(tx, {
        user_id: userId,
        pix_key: normalized.key,
        pix_key_type: input.pix_key_type,
        status: 'pending',
        created_at: ctx.clock.now(),
        updated_at: ctx.clock.now(),
      })
  return { success: true, pix_verified: row.status === 'verified' }
}

function pixFields(key: PixKeyRow | undefined) {
  return {
    pix_key: key ? maskPixKey(key.pix_key_type, key.pix_key) : null,
    pix_key_type: key?.pix_key_type ?? null,
    pix_verified: key?.status === 'verified',
    pix_status: key?.status ?? ('none' as const),
    pix_rejection_reason: key?.rejection_reason ?? null,
  }
}

/** The caller's profile: who they are and their PIX key, masked (GET /api/profile). */
export async function profileOf(db: Executor, userId: string) {
  const [user, key] = await Promise.all([findUser(db, userId), repo.findPixKey(db, userId)])
  return { id: userId, ...user, ...pixFields(key) }
}

/** The key a withdrawal may be paid to, or the seed's refusal (400 none, 403 pending/rejected). */
export async function verifiedPixKey(db: Executor, userId: string): Promise<PixKeyRow> {
  const key = await repo.findPixKey(db, userId)
  if (!key) throw new BadRequest(NO_PIX_KEY)
  if (key.status === 'pending') throw new Forbidden(PIX_KEY_PENDING)
  if (key.status === 'rejected') throw new Forbidden(pixKeyRejected(key.rejection_reason ?? ''))
  return key
}

export async function reviewPixKey(
  tx: Tx,
  ctx: Ctx,
  review: { adminId: string; userId: string } & (
    | { verdict: 'verified' }
    | { verdict: 'rejected'; reason: string }
  ),
) {
  const now = ctx.clock.now()
  const row = await repo.reviewPixKey(tx, review.userId, {
    status: review.verdict,
    rejection_reason: review.verdict === 'rejected' ? review.reason : null,
    reviewed_by: review.adminId,
    reviewed_at: now,
    updated_at: now,
  })
  if (!row) throw new NotFound(PIX_KEY_NOT_FOUND)
  return { success: true, ...pixFields(row) }
}

export async function listPixKeys(db: Executor, query: PixKeyListQuery) {
  const rows = await repo.listPixKeys(db, { status: query.status, ...pageWindow(query) })
  return toPage(rows, query, (r) => ({
    user_id: r.user_id,
    name: r.name,
    email: r.email,
    pix_key: r.pix_key,
    pix_key_type: r.pix_key_type,
    pix_status: r.status,
    pix_rejection_reason: r.rejection_reason,
    updated_at: iso(r.updated_at)!,
  }))
}
