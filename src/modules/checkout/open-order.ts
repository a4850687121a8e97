// A checkout's pending order, written in one statement (kit/statement.ts): the buyer if new,
// with their log-in link and access mail; the order and its shares; `order.created`; the
// order's gateway check; the checkout session's conversion; a PIX's charge, issued before it.
// Without a coupon that statement is its own transaction (no BEGIN or COMMIT to send); a
// coupon's redemption goes first, in a transaction with it, so a coupon used up meanwhile takes
// everything back.
import type { InsertObject } from 'kysely'
import type { Deps } from '../../deps.ts'
import { type Executor, withTx } from '../../kit/db.ts'
import type { DB } from '../../kit/db-schema.ts'
import { toBrl } from '../../kit/money.ts'
import { type Part, writeParts } from '../../kit/statement.ts'
import { buyerParts } from '../accounts/service.ts'
import { redeemCoupon } from '../catalog/coupons.ts'
import { mailParts } from '../email/service.ts'
import { accessEmail } from '../email/templates.ts'
import { commissionFields, type SharePlan, shareParts } from '../ledger/shares.ts'
import { orderPart } from '../orders/service.ts'
import { openCheckPart } from '../payments/checks.ts'
import { eventParts } from '../webhooks/service.ts'
import { convertedPart } from './sessions.ts'

/** The order's own columns; the buyer's id is the statement's. */
type OrderFields = Omit<InsertObject<DB, 'orders'>, 'buyer_id'> & {
  id: string
  account_id: string
  product_id: string
  amount_cents: number
  buyer_email: string
  buyer_name: string
}

export async function openOrder(
  deps: Deps,
  input: {
    order: OrderFields
    productName: string
    shares: SharePlan
    couponId?: string | undefined
    sessionId?: string | undefined
    /** The charge the gateway already issued for the order, and when its check first looks. */
    charge?: { part: Part; lookAt: Date }
  },
) {
  // Two checkouts of one new e-mail at the same moment: the later one's statement cannot see
  // the buyer the other created (its snapshot is older) and fails whole on the order's buyer;
  // once more, it finds them.
  for (let attempt = 1; ; attempt++) {
    try {
      if (!input.couponId) return await writeOrder(deps.db, deps, input)
      const couponId = input.couponId
      return await withTx(deps.db, async (tx) => {
        // Held until the order is paid, or given back when it fails or expires.
        await redeemCoupon(tx, couponId)
        return writeOrder(tx, deps, input)
      })
    } catch (error) {
      if (attempt > 1 || !isBuyerRace(error)) throw error
    }
  }
}

function writeOrder(db: Executor, deps: Deps, input: Parameters<typeof openOrder>[1]) {
  const { order } = input
  const buyer = buyerParts(deps, { name: order.buyer_name, email: order.buyer_email })
  const accessMail = {
    to: order.buyer_email,
    dedupeKey: `access:${buyer.newUserId}`,
    ...accessEmail({
      buyerName: order.buyer_name,
      productName: input.productName,
      loginUrl: buyer.loginUrl,
    }),
  }
  const orderCreated = eventParts(deps, order.account_id, [
    {
      type: 'order.created',
      data: {
        order_id: order.id,
        amount: toBrl(order.amount_cents),
        product_id: order.product_id,
        buyer_email: order.buyer_email,
      },
    },
  ])
  // The order last: its buyer_id reads the buyer part. Nothing is read back (SELECT 1): the
  // checkout has every value it wrote. Alone in its transaction, it may share it with other
  // buyers' checkouts (kit/pg-coalescer.ts): refused, it is run again alone.
  return writeParts(
    db,
    [
      ...buyer.parts,
      // Only a buyer created here gets the access mail (with the link written beside it).
      ...mailParts(deps, [accessMail], buyer.isNew),
      ...shareParts(db, deps, order, input.shares),
      ...orderCreated.parts,
      openCheckPart(deps, { id: order.id, kind: 'charge', at: input.charge?.lookAt }),
      ...(input.sessionId
        ? [
            convertedPart({
              sessionId: input.sessionId,
              productId: order.product_id,
              orderId: order.id,
            }),
          ]
        : []),
      orderPart({ ...order, buyer_id: buyer.id, ...commissionFields(input.shares) }),
      ...(input.charge ? [input.charge.part] : []),
    ],
    undefined,
    { together: true },
  )
}

/** The order's buyer came back null: another statement created the e-mail meanwhile. */
const isBuyerRace = (error: unknown) =>
  (error as { code?: string; column?: string }).code === '23502' &&
  (error as { column?: string }).column === 'buyer_id'
