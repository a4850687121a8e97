import type { InsertObject, RawBuilder } from 'kysely'
import type { Executor, Tx } from '../../kit/db.ts'
import type { DB } from '../../kit/db-schema.ts'
import { BadRequest, NotFound } from '../../kit/errors.ts'
import { pageWindow, toPage } from '../../kit/http/pagination.ts'
import { iso } from '../../kit/http/schemas.ts'
import { toBrl } from '../../kit/money.ts'
import type { Part } from '../../kit/statement.ts'
import { type PlanWithProduct, planFromJson } from '../catalog/service.ts'
import {
  type OrderRow,
  type Paid,
  type PaidOrder,
  ordersRepo as repo,
  type ShownOrder,
} from './repo.ts'
import type { OrderListQuery, OrderOut } from './schema.ts'

export type { Paid, PaidOrder }

export function orderOut(row: ShownOrder): OrderOut {
  return {
    id: row.id,
    status: row.status,
    amount: toBrl(row.amount_cents),
    currency: row.currency,
    buyer_email: row.buyer_email,
    product_id: row.product_id,
    created_at: iso(row.created_at)!,
    plan_id: row.plan_id,
    buyer_id: row.buyer_id,
    payment_method: row.payment_method,
    paid_at: iso(row.paid_at),
    coupon_code: row.coupon_code,
    affiliate_id: row.affiliate_id,
    affiliate_commission:
      row.affiliate_commission_cents === null ? null : toBrl(row.affiliate_commission_cents),
    refunded_at: iso(row.refunded_at),
    subscription_id: row.subscription_id,
    installments: row.installments,
    interest: toBrl(row.interest_cents),
  }
}

export const hasOrdersForProduct = (db: Executor, accountId: string, productId: string) =>
  repo.existsForProduct(db, accountId, productId)

/** A new order, alone in its statement (a checkout's goes as a part: orderPart). */
export const createOrder = (db: Executor, row: InsertObject<DB, 'orders'>) => repo.insert(db, row)

/** createOrder as a part of a statement (kit/statement.ts), after the parts it reads. */
export const orderPart = (row: InsertObject<DB, 'orders'>) => repo.insertPart(row)

export const findOrder = (db: Executor, id: string) =>
  repo.findById(db, id) as Promise<OrderRow | undefined>

/** An order's status, when it was paid and its product: what a buyer's page polls. */
export const findOrderStatus = (db: Executor, id: string) => repo.findStatus(db, id)

/** Who hears of a sale: the account's owner, unless the account turned notifications off. */
export interface SaleNotice {
  email: string
  name: string
  /**
   * The end of the account's latest sale notice window, as the sale's snapshot read it (null:
   * none opened yet): a sale before it is told in a summary, not on its own (sale-notices/).
   */
  windowUntil: Date | null
}

/** An order marked paid, with what its effects need (read by the statement that marked it). */
export interface MarkedPaid {
  order: PaidOrder
  /** Whom to notify of the sale: null when the account turned it off. */
  notify: SaleNotice | null
  hasShares: boolean
  /** The plan sold with its product's name and delivery link. */
  plan: PlanWithProduct | null
}

/**
 * pending → paid, once: a second call (duplicate callback) gets null and does nothing. Also
 * returns whom to notify of the sale (null when the account turned it off) and the plan sold
 * with its product's name and delivery link, read by the same statement.
 */
export async function markPaid(
  tx: Tx,
  orderId: string,
  paidAt: Date,
  /** The caller's writes that go in the same statement; the order is marked only if `onlyIf`. */
  recorded?: { parts: Part[]; onlyIf: RawBuilder<boolean> },
): Promise<MarkedPaid | null> {
  const row = await repo.markPaid(tx, orderId, paidAt, recorded)
  return row ? markedPaid(row) : null
}

/**
 * markPaid as a part named `paid` of the caller's statement (kit/statement.ts), the order named
 * by the caller's earlier parts (`order`, an SQL expression over them); `markedPaid` reads the
 * row it returns.
 */
export const markPaidPart = (order: RawBuilder<string>, paidAt: Date) =>
  repo.markPaidPart(order, paidAt)

/** What markPaid returns, from the row its statement returned. */
export function markedPaid(row: Paid): MarkedPaid {
  const {
    sale_notifications,
    sale_notice_until,
    owner_email,
    owner_name,
    has_pending_shares,
    plan,
    ...order
  } = row
  const notify =
    sale_notifications && owner_email
      ? { email: owner_email, name: owner_name ?? '', windowUntil: sale_notice_until }
      : null
  return {
    order,
    notify,
    hasShares: Boolean(has_pending_shares),
    plan: plan && planFromJson(plan),
  }
}

export async function markFailed(tx: Tx, orderId: string, at: Date): Promise<OrderRow | null> {
  const row = await repo.transition(tx, orderId, 'pending', { status: 'failed', updated_at: at })
  return (row as OrderRow | undefined) ?? null
}

export async function markExpired(tx: Tx, orderId: string, at: Date): Promise<OrderRow | null> {
  const row = await repo.transition(tx, orderId, 'pending', { status: 'expired', updated_at: at })
  return (row as OrderRow | undefined) ?? null
}

/**
 * How deep page numbers go: `page × limit` up to this many orders (page 100 of 50, page 50 of
 * 100). An offset makes the database walk every skipped row (page 20,000 of a million orders
 * took ~160 ms). At 10,000 the walk was a third of the deepest page's answer, whose p99 on a
 * slow machine reached 10–12 ms, past issue 13's 10 ms; at 5,000 it is half that walk
 * (BENCHMARKS.md, thirty-second session). Beyond it, `starting_after` pages by keyset at any
 * depth, as the dashboard does, and the filters (`created_from`, `buyer_email`, …) narrow.
 */
export const MAX_PAGED_ORDERS = 5_000

export async function listOrders(db: Executor, accountId: string, query: OrderListQuery) {
  if (!query.starting_after && query.page * query.limit > MAX_PAGED_ORDERS)
    throw new BadRequest(
      `Página além do limite: page × limit vai até ${MAX_PAGED_ORDERS} pedidos; para ir além, use starting_after com o id do último pedido da página anterior`,
      [
        {
          path: 'page',
          message: `No máximo ${Math.floor(MAX_PAGED_ORDERS / query.limit)} com limit ${query.limit}`,
        },
      ],
    )
  const rows = await repo.list(db, accountId, query, pageWindow(query))
  return toPage(rows, query, orderOut)
}

export async function getOrder(db: Executor, accountId: string, id: string) {
  const row = (await repo.findInAccount(db, accountId, id)) as OrderRow | undefined
  if (!row) throw new NotFound('Pedido não encontrado')
  return orderOut(row)
}

/** A paid order that started (or renews) a subscription points at it. */
export async function linkSubscription(tx: Tx, orderId: string, subscriptionId: string) {
  await repo.setSubscription(tx, orderId, subscriptionId)
}

/** When a pending order stops being payable, once its charge says (PIX expiry, boleto due date). */
export async function setExpiry(tx: Tx, orderId: string, expiresAt: Date) {
  await repo.setExpiry(tx, orderId, expiresAt)
}

/** Locks an order (refunds, chargebacks): callers lock the order before any balance row. */
export async function lockOrder(tx: Tx, id: string, accountId?: string): Promise<OrderRow | null> {
  const row = accountId
    ? await repo.findInAccountForUpdate(tx, accountId, id)
    : await repo.findForUpdate(tx, id)
  return (row as OrderRow | undefined) ?? null
}

/** paid → refunded, once. */
export async function markRefunded(tx: Tx, orderId: string, at: Date): Promise<OrderRow | null> {
  const row = await repo.transition(tx, orderId, 'paid', {
    status: 'refunded',
    refunded_at: at,
    updated_at: at,
  })
  return (row as OrderRow | undefined) ?? null
}

/** paid → chargeback, once. */
export async function markChargeback(tx: Tx, orderId: string, at: Date): Promise<OrderRow | null> {
  const row = await repo.transition(tx, orderId, 'paid', { status: 'chargeback', updated_at: at })
  return (row as OrderRow | undefined) ?? null
}
