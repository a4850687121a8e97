// The back office's reads. Search spans domains (accounts, users, orders, products,
// withdrawals), so this repo reads their tables — read-only, never a write: every change the
// admin makes goes through the owning domain's service (payouts/withdrawals.ts, pix-keys.ts).
import type { Executor } from '../../kit/db.ts'
import type { WithdrawalStatus } from '../../kit/db-schema.ts'
import { newestFirst, type PageWindow } from '../../kit/http/pagination.ts'

/** `%text%` for ILIKE, with the user's own % and _ taken literally. */
const contains = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`

export type AccountQuery = { id: string } | { email: string } | { name: string }
export type OrderQuery = { id: string } | { email: string }

export const adminRepo = {
  searchAccounts(db: Executor, q: AccountQuery, window: PageWindow) {
    let query = db
      .selectFrom('accounts')
      .leftJoin('account_users', (join) =>
        join
          .onRef('account_users.account_id', '=', 'accounts.id')
          .on('account_users.role', '=', 'owner'),
      )
      .leftJoin('users', 'users.id', 'account_users.user_id')
      .select([
        'accounts.id',
        'accounts.name',
        'accounts.created_at',
        'users.id as owner_id',
        'users.name as owner_name',
        'users.email as owner_email',
      ])
    if ('id' in q)
      query = query.where((eb) => eb.or([eb('accounts.id', '=', q.id), eb('users.id', '=', q.id)]))
    else if ('email' in q) query = query.where('users.email', '=', q.email)
    else {
      // A name search reads every account (a back-office query, rare; pg_trgm would index it).
      const like = contains(q.name)
      query = query.where((eb) =>
        eb.or([
          eb('accounts.name', 'ilike', like),
          eb('users.name', 'ilike', like),
          eb('users.email', 'ilike', like),
        ]),
      )
    }
    return query.$call(newestFirst(window, { table: 'accounts' })).execute()
  },

  searchOrders(db: Executor, q: OrderQuery, window: PageWindow) {
    let query = db
      .selectFrom('orders')
      .innerJoin('products', 'products.id', 'orders.product_id')
      .innerJoin('accounts', 'accounts.id', 'orders.account_id')
      .select([
        'orders.id',
        'orders.status',
        'orders.amount_cents',
        'orders.currency',
        'orders.payment_method',
        'orders.buyer_name',
        'orders.buyer_email',
        'orders.product_id',
        'products.name as product_name',
        'orders.account_id',
        'accounts.name as account_name',
        'orders.created_at',
        'orders.paid_at',
      ])
    if ('id' in q) query = query.where('orders.id', '=', q.id)
    // Through the buyer's user (unique e-mail index, then orders_buyer_idx), not a scan.
    else
      query = query.where('orders.buyer_id', 'in', (eb) =>
        eb.selectFrom('users').select('id').where('email', '=', q.email),
      )
    return query.$call(newestFirst(window, { table: 'orders' })).execute()
  },

  withdrawals(db: Executor, status: WithdrawalStatus[] | undefined, window: PageWindow) {
    let query = db
      .selectFrom('withdrawals')
      .innerJoin('users', 'users.id', 'withdrawals.user_id')
      .selectAll('withdrawals')
      .select(['users.name as holder_name', 'users.email as holder_email'])
    if (status) query = query.where('withdrawals.status', 'in', status)
    return query.$call(newestFirst(window, { table: 'withdrawals' })).execute()
  },
}
