// Log-in links asked for on the members page: a fresh one-time link e-mailed to the address
// when a user has it. The caller answers the same whether or not one does (no enumeration).
import type { Deps } from '../../deps.ts'
import type { Tx } from '../../kit/db.ts'
import { queueEmail } from '../email/service.ts'
import { loginLinkEmail } from '../email/templates.ts'
import { accountsRepo as repo } from './repo.ts'
import { createLoginLink } from './service.ts'

/** Short: the person asked for it just now and is waiting for the mail. */
export const REQUESTED_LINK_MS = 3_600_000

export async function sendLoginLink(
  tx: Tx,
  ctx: Pick<Deps, 'clock' | 'appSecret' | 'config' | 'mailHandoff'>,
  email: string,
) {
  const user = await repo.findUserByEmail(tx, email)
  if (!user) return
  const loginUrl = await createLoginLink(tx, ctx, user.id, REQUESTED_LINK_MS)
  await queueEmail(tx, ctx, { to: user.email, ...loginLinkEmail({ name: user.name, loginUrl }) })
}
