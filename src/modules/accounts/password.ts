// Setting a password: an invited user (affiliate, co-producer) or a buyer arrives by a one-time
// link without one and sets it here; a user who has one must confirm it to change it.
import { z } from 'zod'
import { hashPassword, sha256Hex, verifyPassword } from '../../kit/crypto.ts'
import { type Tx, withTx } from '../../kit/db.ts'
import { Forbidden, NotFound } from '../../kit/errors.ts'
import { sessionToken, setSessionCookies } from '../../kit/http/auth.ts'
import { actorOf } from '../../kit/http/guard.ts'
import { hit, hitEach } from '../../kit/rate-limit.ts'
import type { RouteModule } from '../../routes.ts'
import { PASSWORD_CHANGES_PER_USER, RESET_LINKS_PER_EMAIL, RESET_LINKS_PER_IP } from './limits.ts'
import { completePasswordReset, requestPasswordReset } from './password-reset.ts'
import { accountsRepo as repo } from './repo.ts'
import { LoginLinkBody, SessionOut } from './schema.ts'

export const WRONG_PASSWORD = 'Senha atual incorreta'
/** The members-area page where the password is set (invitation links land there). */
export const PASSWORD_PAGE = '/members/senha'

const NewPassword = z.string().min(8, 'A senha precisa ter pelo menos 8 caracteres').max(200)

const PasswordBody = z.object({
  password: NewPassword,
  current_password: z.string().max(200).optional(),
})

const ResetBody = z.object({ token: z.string().min(1).max(200), password: NewPassword })

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
  const cookies = { secure: deps.config.baseUrl.startsWith('https://') }

  app.post(
    '/api/auth/password-reset',
    {
      config: { guard: 'public' },
      schema: {
        tags: ['accounts'],
        operationId: 'requestPasswordReset',
        summary: 'E-mail a password-reset link',
        description: `E-mails a one-time link (1 hour) to the set-password form when a user has this e-mail. Always 202, so the answer tells nothing about which e-mails exist. ${RESET_LINKS_PER_EMAIL.limit} per 15 minutes per e-mail, ${RESET_LINKS_PER_IP.limit} per hour per IP.`,
        body: LoginLinkBody,
        response: { 202: z.object({ accepted: z.literal(true) }) },
        errors: [429],
      },
    },
    async (request, reply) => {
      await hitEach(deps.db, deps.clock, [
        [RESET_LINKS_PER_EMAIL, request.body.email],
        [RESET_LINKS_PER_IP, request.ip],
      ])
      await withTx(deps.db, (tx) => requestPasswordReset(tx, deps, request.body.email))
      return reply.code(202).send({ accepted: true as const })
    },
  )

  app.post(
    '/api/auth/password-reset/complete',
    {
      config: { guard: 'public' },
      schema: {
        tags: ['accounts'],
        operationId: 'completePasswordReset',
        summary: 'Set a new password with a reset link',
        description:
          "Spends the e-mailed link's token, sets the new password, ends every session of the user and logs the caller in (session cookie and `csrf_token`). A used or expired token is a 400.",
        body: ResetBody,
        response: { 200: SessionOut },
      },
    },
    async (request, reply) => {
      const { user, session } = await withTx(deps.db, (tx) =>
        completePasswordReset(tx, deps, request.body),
      )
      setSessionCookies(reply, session, cookies)
      return {
        user: { id: user.id, name: user.name, email: user.email },
        csrf_token: session.csrfToken,
      }
    },
  )

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
