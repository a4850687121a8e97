// Enrolling someone by e-mail (affiliates, co-producers): the user of that e-mail, created as
// an invited user without a password when new, who then gets a one-time link to come in.
import type { Deps } from '../../deps.ts'
import type { Tx } from '../../kit/db.ts'
import { queueEmail } from '../email/service.ts'
import { partnerInvitationEmail } from '../email/templates.ts'
import { PASSWORD_PAGE } from './password.ts'
import { ensureBuyer } from './service.ts'

export async function inviteUser(
  tx: Tx,
  ctx: Pick<Deps, 'clock' | 'appSecret' | 'config' | 'mailHandoff'>,
  input: {
    email: string
    role: 'affiliate' | 'coproducer'
    productName: string
    creatorName: string
  },
) {
  const { user, loginUrl } = await ensureBuyer(tx, ctx, {
    name: input.email.split('@')[0]!,
    email: input.email,
  })
  if (loginUrl) {
    await queueEmail(tx, ctx, {
      to: input.email,
      dedupeKey: `invitation:${user.id}`,
      ...partnerInvitationEmail({
        ...input,
        loginUrl: `${loginUrl}&next=${encodeURIComponent(PASSWORD_PAGE)}`,
      }),
    })
  }
  return user
}
