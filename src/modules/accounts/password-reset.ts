// "Esqueci minha senha": a one-time log-in token (login_links, 1 hour) mailed to the address when
// a user has it. The link opens the set-password form (web/password.tsx); the form's POST spends
// the token and sets the new password in one transaction. Holding the token proves the mailbox,
// so no current password is asked, and every session the user had ends (whoever knew the old
// password is out); the person who reset it is logged in.
import type { Deps } from '../../deps.ts'
import { hashPassword, sha256Hex } from '../../kit/crypto.ts'
import type { Tx } from '../../kit/db.ts'
import { BadRequest } from '../../kit/errors.ts'
import { queueEmail } from '../email/service.ts'
import { passwordResetEmail } from '../email/templates.ts'
import { REQUESTED_LINK_MS } from './login-links.ts'
import { accountsRepo as repo } from './repo.ts'
import { consumeLoginLink, createLoginToken, createSession } from './service.ts'

type Ctx = Pick<Deps, 'clock' | 'appSecret' | 'config' | 'mailHandoff'>

/** Where the reset link lands: the set-password form, holding the token. */
export const RESET_PAGE = '/senha/redefinir'
export const RESET_LINK_EXPIRED = 'Este link de redefinição expirou ou já foi usado. Peça um novo.'

/** Mails a reset link when a user has this e-mail; silent otherwise (the caller answers 202). */
export async function requestPasswordReset(tx: Tx, ctx: Ctx, email: string) {
  const user = await repo.findUserByEmail(tx, email)
  if (!user) return
  const token = await createLoginToken(tx, ctx, user.id, REQUESTED_LINK_MS)
  const resetUrl = `${ctx.config.baseUrl}${RESET_PAGE}?token=${token}`
  await queueEmail(tx, ctx, {
    to: user.email,
    ...passwordResetEmail({ name: user.name, resetUrl }),
  })
}

/** Spends the token, sets the password, ends every session and opens a new one. */
export async function completePasswordReset(
  tx: Tx,
  ctx: Ctx,
  input: { token: string; password: string },
) {
  const userId = await consumeLoginLink(tx, ctx, input.token)
  const user = userId ? await repo.findUserById(tx, userId) : undefined
  if (!user) throw new BadRequest(RESET_LINK_EXPIRED)
  await repo.updateUser(tx, user.id, { password_hash: await hashPassword(input.password) })
  const session = await createSession(tx, ctx, user.id)
  await repo.deleteOtherSessions(tx, user.id, sha256Hex(session.token))
  return { user, session }
}
