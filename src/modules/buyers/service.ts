// The buyer acting as themself in the members area: what they bought, their subscriptions, and
// the two things they may do — cancel a subscription, ask for a refund inside the guarantee
// period. Both reuse the creator-side services, so the same rules, events and ledger apply.
import type { Deps, Outbox } from '../../deps.ts'
import type { Executor, Tx } from '../../kit/db.ts'
import { AppError, BadRequest, Conflict, NotFound } from '../../kit/errors.ts'
import { type PageQuery, pageWindow, toPage } from '../../kit/http/pagination.ts'
import { iso } from '../../kit/http/schemas.ts'
import { toBrl } from '../../kit/money.ts'
import { findProductById } from '../catalog/service.ts'
import { buyerOrdersRepo } from '../orders/buyer-repo.ts'
import type { OrderRow } from '../orders/repo.ts'
import { buyerRefundsRepo } from '../refunds/buyer-repo.ts'
import type { RefundRow } from '../refunds/repo.ts'
import { ORDER_NOT_PAID, REFUND_ALREADY_REQUESTED, requestRefund } from '../refunds/service.ts'
import { buyerSubscriptionsRepo } from '../subscriptions/buyer-repo.ts'
import type { SubscriptionRow } from '../subscriptions/repo.ts'
import { cancelSubscription, SUBSCRIPTION_NOT_FOUND } from '../subscriptions/service.ts'
import type { MySubscriptionOut, PurchaseOut } from './schema.ts'

type Ctx = Outbox & Pick<Deps, 'config'>

const DAY_MS = 86_400_000
/** CDC art. 49: at least 7 days to regret a purchase made away from a shop. */
export const MIN_REFUND_DAYS = 7
export const ORDER_NOT_FOUND = 'Pedido não encontrado'
export const REFUND_PERIOD_OVER =
  'O prazo de garantia deste pedido terminou: o reembolso não pode mais ser pedido aqui.'
export const REFUND_ALREADY_ASKED = 'Você já pediu o reembolso deste pedido.'
export const ORDER_NOT_REFUNDABLE = 'Só um pedido pago pode ser reembolsado.'

/** A purchase as the members area shows it (amounts in centavos). */
export interface Purchase {
  order: OrderRow
  productName: string
  refund: RefundRow | null
  refundableUntil: Date | null
  canRefund: boolean
}

export interface MySubscription {
  sub: SubscriptionRow
  productName: string
}

/** The end of the period a paid order may be refunded in: the product's guarantee, at least 7 days. */
export function refundableUntil(order: Pick<OrderRow, 'paid_at'>, guaranteeDays: number) {
  if (!order.paid_at) return null
  return new Date(order.paid_at.getTime() + Math.max(MIN_REFUND_DAYS, guaranteeDays) * DAY_MS)
}

async function productNames(db: Executor, ids: string[]) {
  const unique = [...new Set(ids)]
  const products = await Promise.all(unique.map((id) => findProductById(db, id)))
  return new Map(
    products
      .filter((p) => p !== undefined)
      .map((p) => [p.id, { name: p.name, guarantee: p.guarantee_days }]),
  )
}

async function purchasesOf(db: Executor, ctx: Ctx, orders: OrderRow[]): Promise<Purchase[]> {
  const [products, refunds] = await Promise.all([
    productNames(
      db,
      orders.map((o) => o.product_id),
    ),
    buyerRefundsRepo.liveOfOrders(
      db,
      orders.map((o) => o.id),
    ),
  ])
  const refundOf = new Map(refunds.map((r) => [r.order_id, r]))
  const now = ctx.clock.now()
  return orders.map((order) => {
    const product = products.get(order.product_id)
    const until = refundableUntil(order, product?.guarantee ?? MIN_REFUND_DAYS)
    const refund = refundOf.get(order.id) ?? null
    return {
      order,
      productName: product?.name ?? 'Produto',
      refund,
      refundableUntil: order.status === 'paid' ? until : null,
      canRefund: order.status === 'paid' && !refund && until !== null && now <= until,
    }
  })
}

export async function listPurchases(db: Executor, ctx: Ctx, buyerId: string, query: PageQuery) {
  const rows = await buyerOrdersRepo.listOfBuyer(db, buyerId, pageWindow(query))
  const page = toPage(rows, query, (row) => row)
  return { ...page, data: await purchasesOf(db, ctx, page.data) }
}

export function purchaseOut(p: Purchase): PurchaseOut {
  const { order } = p
  return {
    order_id: order.id,
    product_id: order.product_id,
    product_name: p.productName,
    amount: toBrl(order.amount_cents),
    status: order.status,
    payment_method: order.payment_method,
    installments: order.installments,
    created_at: iso(order.created_at)!,
    paid_at: iso(order.paid_at),
    refunded_at: iso(order.refunded_at),
    refund: p.refund
      ? {
          id: p.refund.id,
          status: p.refund.status as 'pending' | 'completed',
          created_at: iso(p.refund.created_at)!,
        }
      : null,
    refundable_until: iso(p.refundableUntil),
    can_refund: p.canRefund,
  }
}

export async function listSubscriptions(db: Executor, buyerId: string): Promise<MySubscription[]> {
  const subs = await buyerSubscriptionsRepo.listOfBuyer(db, buyerId)
  const products = await productNames(
    db,
    subs.map((s) => s.product_id),
  )
  return subs.map((sub) => ({
    sub,
    productName: products.get(sub.product_id)?.name ?? 'Assinatura',
  }))
}

export function subscriptionOut(s: MySubscription): MySubscriptionOut {
  const { sub } = s
  return {
    id: sub.id,
    product_id: sub.product_id,
    product_name: s.productName,
    status: sub.status,
    amount: toBrl(sub.amount_cents),
    interval: sub.interval,
    interval_count: sub.interval_count,
    current_period_end: iso(sub.current_period_end)!,
    cancel_at_period_end: sub.cancel_at_period_end,
    canceled_at: iso(sub.canceled_at),
  }
}

/**
 * The buyer cancels their subscription: at the period end, as when the creator cancels (they
 * keep what they paid for and are not charged again). Another buyer's id is a 404.
 */
export async function cancelMySubscription(
  tx: Tx,
  ctx: Ctx,
  buyerId: string,
  id: string,
): Promise<MySubscription> {
  const sub = await buyerSubscriptionsRepo.findOfBuyer(tx, buyerId, id)
  if (!sub) throw new NotFound(SUBSCRIPTION_NOT_FOUND)
  await cancelSubscription(tx, ctx, sub.account_id, sub.id, { immediately: false })
  const updated = await buyerSubscriptionsRepo.findOfBuyer(tx, buyerId, id)
  const product = await findProductById(tx, sub.product_id)
  return { sub: updated!, productName: product?.name ?? 'Assinatura' }
}

/**
 * The buyer asks for a refund: their own paid order (another buyer's is a 404), inside the
 * guarantee period (400 outside it), then the creator-side `requestRefund` — the same reservation,
 * events and asynchronous worker. Its English protocol messages are given to the buyer in pt-BR.
 */
export async function requestMyRefund(
  tx: Tx,
  ctx: Ctx,
  buyerId: string,
  orderId: string,
  reason: string,
) {
  const order = await buyerOrdersRepo.findOfBuyer(tx, buyerId, orderId)
  if (!order) throw new NotFound(ORDER_NOT_FOUND)
  const [live] = await buyerRefundsRepo.liveOfOrders(tx, [order.id])
  if (!live && order.status === 'paid') {
    const product = await findProductById(tx, order.product_id)
    const until = refundableUntil(order, product?.guarantee_days ?? MIN_REFUND_DAYS)
    if (!until || ctx.clock.now() > until) throw new BadRequest(REFUND_PERIOD_OVER)
  }
  try {
    return await requestRefund(
      tx,
      ctx,
      { accountId: order.account_id, userId: buyerId },
      order.id,
      reason,
    )
  } catch (error) {
    if (error instanceof AppError && error.message === REFUND_ALREADY_REQUESTED)
      throw new Conflict(REFUND_ALREADY_ASKED)
    if (error instanceof AppError && error.message === ORDER_NOT_PAID)
      throw new BadRequest(ORDER_NOT_REFUNDABLE)
    throw error
  }
}
