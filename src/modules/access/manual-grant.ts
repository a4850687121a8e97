// Access granted by hand (POST /api/v1/members/grant): a creator gives a product to someone
// without a purchase (a gift, a partner, a support case). The person becomes a user if new (and
// gets a log-in link by e-mail) and a member of the account; the access has no order
// (`order_id` null), so nothing is charged, no share or ledger entry exists and a refund never
// touches it. Events fire as for a purchase (`member.enrolled`, `access.granted`), through the
// same grantAccess. Revoking it is the usual revoke.
import type { Deps } from '../../deps.ts'
import type { Tx } from '../../kit/db.ts'
import { Conflict } from '../../kit/errors.ts'
import { ensureBuyer } from '../accounts/service.ts'
import { getProduct } from '../catalog/service.ts'
import { queueEmail } from '../email/service.ts'
import { handGrantEmail } from './manual-grant-email.ts'
import { manualGrantRepo as repo } from './manual-grant-repo.ts'
import { getMember, grantAccess } from './service.ts'

export const ALREADY_HAS_ACCESS = 'Esta pessoa já tem acesso ativo a este produto'

export interface HandGrantInput {
  email: string
  name?: string | undefined
  product_id: string
}

export async function grantByHand(
  tx: Tx,
  deps: Deps,
  account: { id: string; name: string },
  input: HandGrantInput,
) {
  const product = await getProduct(tx, deps, account.id, input.product_id)
  const name = input.name?.trim() || input.email.split('@')[0]!
  const buyer = await ensureBuyer(tx, deps, { name, email: input.email })
  // Two grants of one product to one person at once: the second waits here, then sees the first.
  await repo.lockGrantee(tx, account.id, buyer.user.id, product.id)
  const active = await repo.hasActiveAccess(tx, account.id, buyer.user.id, product.id)
  if (active) throw new Conflict(ALREADY_HAS_ACCESS)
  await grantAccess(tx, deps, {
    accountId: account.id,
    buyerId: buyer.user.id,
    productId: product.id,
    orderId: null,
  })
  await queueEmail(tx, deps, {
    to: input.email,
    ...handGrantEmail({
      name: buyer.user.name || name,
      productName: product.name,
      accountName: account.name,
      loginUrl: buyer.loginUrl,
      membersUrl: `${deps.config.baseUrl}/members`,
    }),
  })
  return getMember(tx, account.id, buyer.user.id)
}
