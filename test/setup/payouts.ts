// Steps of the payout flows as a creator and the platform admin take them, over HTTP.
import { expect } from 'vitest'
import { type Creator, sessionCookieFrom } from './actors.ts'
import type { ApiClient, Session } from './service.ts'

export const ADMIN = { ADMIN_EMAIL: 'plataforma@example.com', ADMIN_PASSWORD: 'admin-senha-123' }

export async function adminSession(api: ApiClient): Promise<Session> {
  const login = await api('POST', '/api/auth/login', {
    body: { email: ADMIN.ADMIN_EMAIL, password: ADMIN.ADMIN_PASSWORD },
  })
  expect(login.status).toBe(200)
  return { cookie: sessionCookieFrom(login.headers), csrf: login.body.csrf_token }
}

/** Registers a PIX key for the session's user and has the admin verify it. */
export async function verifiedPixKey(
  api: ApiClient,
  admin: Session,
  user: { userId: string; session: Session },
  key: { pix_key: string; pix_key_type: string } = {
    pix_key: '529.982.247-25',
    pix_key_type: 'cpf',
  },
) {
  const set = await api('PATCH', '/api/profile/pix', { session: user.session, body: key })
  expect(set.status).toBe(200)
  const verified = await api('POST', `/api/admin/pix-keys/${user.userId}/verify`, {
    session: admin,
  })
  expect(verified.status).toBe(200)
}

export function withdraw(api: ApiClient, creator: Creator, amount: number) {
  return api('POST', '/api/withdrawals', {
    session: creator.session,
    body: { tenant_id: creator.accountId, amount },
  })
}

export function review(
  api: ApiClient,
  admin: Session,
  id: string,
  action: 'approve' | 'reject' | 'pay',
  body?: unknown,
) {
  return api('POST', `/api/admin/withdrawals/${id}/${action}`, { session: admin, body })
}

/** The creator's seed balance of their account, as `GET /api/balance` answers it (BRL). */
export async function balanceOf(api: ApiClient, creator: Creator) {
  const res = await api('GET', `/api/balance?tenant_id=${creator.accountId}`, {
    session: creator.session,
  })
  return res.body as { available: number; withdrawn_total: number; [field: string]: number }
}
