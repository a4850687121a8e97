// Abandoned carts: a session not converted after CART_RECOVERY_AFTER gets one e-mail with the
// link back to its pre-filled checkout. Marked in the same transaction, so never sent twice.
import type { Deps } from '../../deps.ts'
import { withTx } from '../../kit/db.ts'
import { startPoller } from '../../kit/jobs.ts'
import type { WorkerFactory } from '../../workers.ts'
import { findProductById } from '../catalog/service.ts'
import { queueEmail } from '../email/service.ts'
import { cartRecoveryEmail } from '../email/templates.ts'
import { checkoutRepo as repo } from './repo.ts'

const BATCH = 100

export async function sendDueRecoveries(deps: Deps): Promise<number> {
  return withTx(deps.db, async (tx) => {
    const now = deps.clock.now()
    const due = await repo.lockDueForRecovery(
      tx,
      new Date(now.getTime() - deps.config.cartRecoveryAfterMs),
      BATCH,
    )
    for (const session of due) {
      const product = await findProductById(tx, session.product_id)
      await repo.markRecoverySent(tx, session.id, now)
      if (product?.status !== 'active') continue
      await queueEmail(tx, deps, {
        to: session.email,
        dedupeKey: `cart-recovery:${session.id}`,
        ...cartRecoveryEmail({
          buyerName: session.name ?? '',
          productName: product.name,
          checkoutLink: `${deps.config.checkoutUrl}/checkout/${product.slug}?session=${session.id}`,
        }),
      })
    }
    return due.length
  })
}

export const startCartRecoveryWorker: WorkerFactory = (deps) =>
  startPoller({
    name: 'checkout.cart-recovery',
    intervalMs: Math.max(deps.config.workerPollMs, 1_000),
    pass: () => sendDueRecoveries(deps),
    onError: (error) => deps.log.error({ err: error }, 'cart recovery pass failed'),
  })
