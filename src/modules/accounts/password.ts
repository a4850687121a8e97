// Setting a password: an invited user (affiliate, co-producer) or a buyer arrives by a one-time
// link without one and sets it here; a user who has one must confirm it to change it.
import { z } from 'zod'
import { hashPassword, sha256Hex, verifyPassword } from '../../kit/crypto.ts'
import { type Tx, withTx } from '../../kit/db.ts'
import { Forbidden, NotFound } from '../../kit/errors.ts'
import { sessionToken } from '../../kit/http/auth.ts'
import { actorOf } from '../../kit/http/guard.ts'
import { hit } from '../../kit/rate-limit.ts'
import type { RouteModule } from '../../routes.ts'
import { PASSWORD_CHANGES_PER_USER } from './limits.ts'
import { accountsRepo as repo } from './repo.ts'

export const WRONG_PASSWORD = 'Senha atual incorreta'
/** The members-area page where the password is set (invitation links land there). */
export const PASSWORD_PAGE = '/members/senha'

const PasswordBody = z.object({
  password: z.string().min(8, 'A senha precisa ter pelo menos 8 caracteres').max(200),
  current_password: z.string().max(200).optional(),
})

/**
 * Sets the password and ends every other session of the user (whoever else holds one — a
 * stolen cookie, a forgotten device — must log in with the new password); `sessionToken`, the
 * session that made the change, stays.
 */
export async function setPassword(
  tx: Tx,
  actor: { userId: string; sessionToken: string },
  input: { password: string; current_password?: string | undefined },
) {
  const user = await repo.findUserById(tx, actor.userId)
  if (!user) throw new NotFound('User not found')
  if (user.password_hash) {
    const ok = await verifyPassword(input.current_password ?? '', user.password_hash)
    if (!ok) throw new Forbidden(WRONG_PASSWORD)
  }
  await repo.updateUser(tx, user.id, { password_hash: await hashPassword(input.password) })
  await repo.deleteOtherSessions(tx, user.id, sha256Hex(actor.sessionToken))
}

export const passwordRoutes: RouteModule = (app, deps) => {
  app.post(
    '/api/auth/password',
    {
      config: { guard: 'session' },
      schema: {
        tags: ['accounts'],
        operationId: 'setPassword',
        summary: 'Set or change the password',
        description: `Sets the logged-in user's password (session only) and ends their other sessions. A user who already has one sends it as current_password. ${PASSWORD_CHANGES_PER_USER.limit} attempts per 15 minutes.`,
        errors: [429],
        body: PasswordBody,
        response: { 200: z.object({ password_set: z.boolean() }) },
      },
    },
    async (request) => {
      const { userId } = actorOf(request)
      // Outside the transaction: a wrong current password (403) still counts.
      await hit(deps.db, deps.clock, PASSWORD_CHANGES_PER_USER, userId)
      const actor = { userId, sessionToken: sessionToken(request)! }
      await withTx(deps.db, (tx) => setPassword(tx, actor, request.body))
      return { password_set: true }
    },
  )
}
