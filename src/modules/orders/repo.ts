import {
  type Expression,
  type InferResult,
  type Insertable,
  type InsertObject,
  isExpression,
  type Kysely,
  type RawBuilder,
  type Selectable,
  sql,
} from 'kysely'
import { jsonObjectFrom } from 'kysely/helpers/postgres'
import type { Executor } from '../../kit/db.ts'
import type { DB, OrderStatus } from '../../kit/db-schema.ts'
import { newestFirst, type PageWindow } from '../../kit/http/pagination.ts'
import { type Part, writeParts } from '../../kit/statement.ts'
import {
  ALWAYS,
  compiler,
  type Fragment,
  fragmentTemplate,
  fragmentTemplatePer,
  runFragment,
  template,
} from '../../kit/template.ts'
import type { OrderListQuery } from './schema.ts'

export type OrderRow = Selectable<DB['orders']>

/**
 * The columns an order's API answer shows (orders/service.ts `orderOut`): what a list reads.
 * Read whole, a page's rows spent ~40 % of the request's CPU in parsing, a third of it on
 * columns no answer shows (the buyer's document, phone and IP, …).
 */
export const SHOWN_COLUMNS = [
  'id',
  'status',
  'amount_cents',
  'currency',
  'buyer_email',
  'product_id',
  'created_at',
  'plan_id',
  'buyer_id',
  'payment_method',
  'paid_at',
  'coupon_code',
  'affiliate_id',
  'affiliate_commission_cents',
  'refunded_at',
  'subscription_id',
  'installments',
  'interest_cents',
] as const
export type ShownOrder = Pick<OrderRow, (typeof SHOWN_COLUMNS)[number]>
/** The list's filters without its paging: what the CSV export reads in batches. */
export type OrderFilters = Omit<OrderListQuery, 'page' | 'limit' | 'starting_after'>
/** The filters as a statement takes them: the dates parsed. */
type FilterValues = Omit<OrderFilters, 'created_from' | 'created_to'> & {
  created_from?: Date | undefined
  created_to?: Date | undefined
}
const FILTERS = [
  'status',
  'payment_method',
  'product_id',
  'buyer_email',
  'created_from',
  'created_to',
] as const satisfies readonly (keyof OrderFilters)[]
type Filter = (typeof FILTERS)[number]

function filterValues(f: OrderFilters): FilterValues {
  return {
    status: f.status,
    payment_method: f.payment_method,
    product_id: f.product_id,
    buyer_email: f.buyer_email,
    created_from: f.created_from ? new Date(f.created_from) : undefined,
    created_to: f.created_to ? new Date(f.created_to) : undefined,
  }
}

/** A list page's values: its filters, whose account, and where the page is cut. */
type ListValues = FilterValues & {
  accountId: string
  offset: number
  take: number
  after: string | undefined
}
/** Page 1; a page past it by offset (deepPage); a page after a `starting_after` row. */
type ListForm = 'first' | 'deep' | 'after'

/**
 * A list page's statement per form and set of filters given, compiled once each (at most 3 ×
 * 64): built and compiled per request, the query cost ~8 % of an orders page's CPU.
 */
const listStatements = new Map<string, (values: ListValues) => Fragment>()
function listStatement(form: ListForm, given: readonly Filter[]) {
  const shape = `${form}:${given.join(',')}`
  let statement = listStatements.get(shape)
  if (!statement) {
    statement = fragmentTemplate((q, v: ListValues) => {
      // Only the given filters' stand-ins: an absent one adds no condition.
      const f: FilterValues = {}
      for (const name of given) Object.assign(f, { [name]: v[name] })
      const window = { offset: v.offset, take: v.take, startingAfter: undefined }
      if (form === 'deep') return deepPage(q, v.accountId, f, window)
      return matching(q, v.accountId, f)
        .clearSelect()
        .select(SHOWN_COLUMNS)
        .$call(
          newestFirst(form === 'after' ? { ...window, startingAfter: v.after } : window, {
            table: 'orders',
            scope: { account_id: v.accountId },
          }),
        )
    })
    listStatements.set(shape, statement)
  }
  return statement
}

/**
 * A page past the first by its offset (issue 13, point 7): the page starts at the row the
 * offset reaches, found by walking the index alone (account, created_at, id: an index-only
 * scan where the table's pages are all-visible, as old orders are), and its rows are read
 * from there on as page 1's are, in the index's order. Read whole, every skipped order was read
 * from the table too: page 200 of 1 M orders read 10,000 rows for 50 (p50 5.1–6.8 → 3.6–3.9 ms
 * through the repo, one client, same hour). Reading the page's rows by id after the walk (until
 * 2026-11-28) cost a lookup in the primary key per row: the deepest page of 100 took 0.62–0.66
 * ms of PostgreSQL, 0.50 from the row the walk reaches. An offset past the last order reaches
 * no row, and the comparison with none keeps none: an empty page.
 */
function deepPage(db: Executor, accountId: string, f: FilterValues, window: PageWindow) {
  const start = matching(db, accountId, f)
    .clearSelect()
    .select(['orders.created_at', 'orders.id'])
    .orderBy('orders.created_at', 'desc')
    .orderBy('orders.id', 'desc')
    .offset(window.offset)
    .limit(1)
  return matching(db, accountId, f)
    .clearSelect()
    .select(SHOWN_COLUMNS)
    .where(sql<boolean>`(orders.created_at, orders.id) <= ${start}`)
    .orderBy('orders.created_at', 'desc')
    .orderBy('orders.id', 'desc')
    .limit(window.take)
}

/** An account's orders matching the list's filters, as a query to page or batch. */
function matching(db: Executor, accountId: string, f: FilterValues) {
  let query = db.selectFrom('orders').selectAll().where('account_id', '=', accountId)
  if (f.status) query = query.where('status', '=', f.status)
  if (f.payment_method) query = query.where('payment_method', '=', f.payment_method)
  if (f.product_id) query = query.where('product_id', '=', f.product_id)
  if (f.buyer_email) query = query.where('buyer_email', '=', f.buyer_email)
  if (f.created_from) query = query.where('created_at', '>=', f.created_from)
  if (f.created_to) query = query.where('created_at', '<', f.created_to)
  return query
}

/** Columns whose value is SQL (the buyer a checkout creates in its statement), by their text. */
const sqlTexts = new WeakMap<Expression<unknown>, string>()
function sqlTextOf(value: Expression<unknown>) {
  let text = sqlTexts.get(value)
  if (text === undefined) {
    const compiled = sql`${value}`.compile(compiler)
    // Its values would be compiled into a text other orders share.
    if (compiled.parameters.length) throw new Error('an order column’s SQL may not carry values')
    text = compiled.sql
    sqlTexts.set(value, text)
  }
  return text
}

/**
 * The order insert per shape (which columns are given, and the SQL of those given as SQL),
 * compiled once each (kit/template.ts).
 */
const orderInserts = new Map<string, (row: InsertObject<DB, 'orders'>) => Fragment>()
function orderInsert(row: InsertObject<DB, 'orders'>) {
  const given = Object.entries(row).filter(([, value]) => value !== undefined)
  const shape = given
    .map(([column, value]) => (isExpression(value) ? `${column}=${sqlTextOf(value)}` : column))
    .join(',')
  let insert = orderInserts.get(shape)
  if (!insert) {
    insert = fragmentTemplate((q, v: InsertObject<DB, 'orders'>) =>
      q
        .insertInto('orders')
        .values(
          Object.fromEntries(
            given.map(([column, value]) => [
              column,
              isExpression(value) ? value : v[column as keyof typeof v],
            ]),
          ) as InsertObject<DB, 'orders'>,
        )
        .returningAll(),
    )
    orderInserts.set(shape, insert)
  }
  return insert(row)
}

/** What a paid order's effects read of it: its events, mails, access, ledger and subscription. */
export const PAID_ORDER_COLUMNS = [
  'id',
  'account_id',
  'product_id',
  'plan_id',
  'buyer_id',
  'buyer_email',
  'buyer_name',
  'amount_cents',
  'interest_cents',
  'currency',
  'payment_method',
  'installments',
  'affiliate_id',
  'subscription_id',
] as const
export type PaidOrder = Pick<OrderRow, (typeof PAID_ORDER_COLUMNS)[number]>

/**
 * pending → paid, and in the same statement what the sale notification needs (the account's
 * setting and its owner's address: a join, not a lock; only the order row is locked), the plan
 * sold, and whether the order has shares pending (the sale posting skips reading them when not).
 */
const markPaidQuery = (q: Kysely<DB>, v: { id: string | RawBuilder<string>; paidAt: Date }) =>
  q
    .updateTable('orders')
    .from('accounts')
    .set({ status: 'paid', paid_at: v.paidAt, updated_at: v.paidAt })
    .whereRef('accounts.id', '=', 'orders.account_id')
    .where('orders.id', '=', v.id)
    .where('orders.status', '=', 'pending')
    // The order's columns its payment's effects read (confirm.ts), not all of them: each is
    // parsed on every payment.
    .returning(PAID_ORDER_COLUMNS.map((column) => `orders.${column}` as const))
    .returning((eb) => {
      const owner = eb
        .selectFrom('account_users')
        .innerJoin('users', 'users.id', 'account_users.user_id')
        .whereRef('account_users.account_id', '=', 'orders.account_id')
        .where('account_users.role', '=', 'owner')
        .orderBy('account_users.created_at')
        .limit(1)
      return [
        'accounts.sale_notifications',
        // The end of the account's sale notice window (sale-notices/): a sale before it is told
        // in that window's summary.
        'accounts.sale_notice_until',
        owner.select('users.email').as('owner_email'),
        owner.select('users.name').as('owner_name'),
        // The plan sold and its product's name and delivery link (the delivery mail's).
        jsonObjectFrom(
          eb
            .selectFrom('plans')
            .innerJoin('products', 'products.id', 'plans.product_id')
            .selectAll('plans')
            .select([
              'products.name as product_name',
              'products.delivery_url as product_delivery_url',
            ])
            .whereRef('plans.id', '=', 'orders.plan_id'),
        ).as('plan'),
        // Whether the sale has shares to move (the ledger skips reading them when not).
        eb
          .exists(
            eb
              .selectFrom('order_shares')
              .select('order_shares.id')
              .whereRef('order_shares.order_id', '=', 'orders.id')
              .where('order_shares.status', '=', 'pending'),
          )
          .as('has_pending_shares'),
      ]
    })
export type Paid = InferResult<ReturnType<typeof markPaidQuery>>[number]

/** markPaid's statement per condition (kit/template.ts). */
const paidUpdate = fragmentTemplatePer(
  (q, v: { id: string; paidAt: Date }, onlyIf: RawBuilder<boolean>) =>
    markPaidQuery(q, v).where(onlyIf),
)

/**
 * markPaid's update as a part, per order expression: the order named by the statement's earlier
 * parts (SQL over them, without parameters; a module constant, kit/template.ts).
 */
const paidUpdateOf = fragmentTemplatePer((q, v: { paidAt: Date }, order: RawBuilder<string>) =>
  markPaidQuery(q, { id: order, paidAt: v.paidAt }),
)

/**
 * What the hosted checkout polls while its buyer pays (checkout/service.ts orderStatus): only
 * the columns it answers with, compiled once; a launch's waiting buyers poll it many times each.
 */
const statusRead = template((q, v: { id: string }) =>
  q.selectFrom('orders').select(['id', 'status', 'paid_at', 'product_id']).where('id', '=', v.id),
)

export const ordersRepo = {
  /** An order's status, when it was paid and its product (statusRead). */
  async findStatus(db: Executor, id: string) {
    return (await statusRead(db, { id }))[0]
  },

  /** A new order. */
  async insert(db: Executor, row: InsertObject<DB, 'orders'>) {
    return (await runFragment<OrderRow>(db, orderInsert(row)))[0]!
  },

  /**
   * A new order as a part of a statement (kit/statement.ts), after the parts its values read
   * (the buyer a checkout creates there).
   */
  insertPart: (row: InsertObject<DB, 'orders'>): Part => ({
    name: 'new_order',
    query: orderInsert(row),
  }),

  findById(db: Executor, id: string) {
    return db.selectFrom('orders').selectAll().where('id', '=', id).executeTakeFirst()
  },

  findForUpdate(db: Executor, id: string) {
    return db.selectFrom('orders').selectAll().where('id', '=', id).forUpdate().executeTakeFirst()
  },

  findInAccountForUpdate(db: Executor, accountId: string, id: string) {
    return db
      .selectFrom('orders')
      .selectAll()
      .where('id', '=', id)
      .where('account_id', '=', accountId)
      .forUpdate()
      .executeTakeFirst()
  },

  findInAccount(db: Executor, accountId: string, id: string) {
    return db
      .selectFrom('orders')
      .selectAll()
      .where('id', '=', id)
      .where('account_id', '=', accountId)
      .executeTakeFirst()
  },

  /** The state machine's guard lives in SQL: only a row in `from` moves, once. */
  transition(
    db: Executor,
    id: string,
    from: OrderStatus,
    patch: Partial<Insertable<DB['orders']>> & { status: OrderStatus },
  ) {
    return db
      .updateTable('orders')
      .set(patch)
      .where('id', '=', id)
      .where('status', '=', from)
      .returningAll()
      .executeTakeFirst()
  },

  /**
   * pending → paid, returning what the paid order's effects need. `recorded`: the caller's
   * writes that go in this statement, the order marked only if `onlyIf` holds there (a
   * callback's inbox row was new).
   */
  async markPaid(
    db: Executor,
    id: string,
    paidAt: Date,
    recorded?: { parts: Part[]; onlyIf: RawBuilder<boolean> },
  ) {
    const query = paidUpdate(recorded?.onlyIf ?? ALWAYS)({ id, paidAt })
    const [paid] = recorded
      ? await writeParts<Paid>(db, recorded.parts, query)
      : await runFragment<Paid>(db, query)
    return paid
  },

  /** markPaid as a part named `paid` (kit/statement.ts): its RETURNING is the paid order's. */
  markPaidPart(order: RawBuilder<string>, paidAt: Date): Part {
    return { name: 'paid', query: paidUpdateOf(order)({ paidAt }) }
  },

  /** Within its account: one probe of `orders_account_product_idx`, not a scan of every order. */
  async existsForProduct(db: Executor, accountId: string, productId: string) {
    const row = await db
      .selectFrom('orders')
      .select('id')
      .where('account_id', '=', accountId)
      .where('product_id', '=', productId)
      .limit(1)
      .executeTakeFirst()
    return Boolean(row)
  },

  list(
    db: Executor,
    accountId: string,
    q: OrderListQuery,
    window: PageWindow,
  ): Promise<ShownOrder[]> {
    const form = window.startingAfter ? 'after' : window.offset > 0 ? 'deep' : 'first'
    const values: ListValues = {
      ...filterValues(q),
      accountId,
      offset: window.offset,
      take: window.take,
      after: window.startingAfter,
    }
    const given = FILTERS.filter((name) => values[name])
    return runFragment<ShownOrder>(db, listStatement(form, given)(values))
  },

  /**
   * Up to `take` matching orders older than `after` (the previous batch's last row), newest
   * first: the CSV export reads an export of any size in short queries, holding no transaction
   * and no connection between batches.
   */
  batch(
    db: Executor,
    accountId: string,
    f: OrderFilters,
    after: { created_at: Date; id: string } | undefined,
    take: number,
  ): Promise<OrderRow[]> {
    let query = matching(db, accountId, filterValues(f))
    if (after)
      query = query.where((eb) =>
        eb(eb.refTuple('created_at', 'id'), '<', eb.tuple(after.created_at, after.id)),
      )
    return query.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(take).execute()
  },

  setExpiry(db: Executor, id: string, expiresAt: Date) {
    return db.updateTable('orders').set({ expires_at: expiresAt }).where('id', '=', id).execute()
  },

  setSubscription(db: Executor, id: string, subscriptionId: string) {
    return db
      .updateTable('orders')
      .set({ subscription_id: subscriptionId })
      .where('id', '=', id)
      .execute()
  },
}
