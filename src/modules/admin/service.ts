// The back office's search and withdrawal history: what the admin looks up before acting.
// Read-only; the actions stay in payouts (withdrawals.ts, pix-keys.ts).
import type { Executor } from '../../kit/db.ts'
import { pageWindow, toPage } from '../../kit/http/pagination.ts'
import { iso } from '../../kit/http/schemas.ts'
import { isUuid } from '../../kit/ids.ts'
import { toBrl } from '../../kit/money.ts'
import { affiliateBalance, coproducerBalance, creatorBalance } from '../ledger/balances.ts'
import { withdrawalOut } from '../payouts/withdrawals.ts'
import { type AccountQuery, type OrderQuery, adminRepo as repo } from './repo.ts'
import type {
  AccountSearchQuery,
  AdminWithdrawalOut,
  OrderSearchQuery,
  WithdrawalHistoryQuery,
} from './schema.ts'

const looksLikeEmail = (q: string) => q.includes('@')

/** An id finds the account (or its owner's user id), an e-mail its owner, other text a name. */
export async function searchAccounts(db: Executor, query: AccountSearchQuery) {
  const q = query.q
  const by: AccountQuery = isUuid(q)
    ? { id: q.toLowerCase() }
    : looksLikeEmail(q)
      ? { email: q.toLowerCase() }
      : { name: q }
  const rows = await repo.searchAccounts(db, by, pageWindow(query))
  return toPage(rows, query, (r) => ({
    id: r.id,
    name: r.name,
    created_at: iso(r.created_at)!,
    owner:
      r.owner_id && r.owner_name !== null && r.owner_email !== null
        ? { id: r.owner_id, name: r.owner_name, email: r.owner_email }
        : null,
  }))
}

/** An order by id, or every order of the buyer with that e-mail (newest first). */
export async function searchOrders(db: Executor, query: OrderSearchQuery) {
  const q = query.q
  const by: OrderQuery = isUuid(q) ? { id: q.toLowerCase() } : { email: q.toLowerCase() }
  const rows = await repo.searchOrders(db, by, pageWindow(query))
  return toPage(rows, query, (r) => ({
    id: r.id,
    status: r.status,
    amount: toBrl(r.amount_cents),
    currency: r.currency,
    payment_method: r.payment_method,
    buyer_name: r.buyer_name,
    buyer_email: r.buyer_email,
    product_id: r.product_id,
    product_name: r.product_name,
    account_id: r.account_id,
    account_name: r.account_name,
    created_at: iso(r.created_at)!,
    paid_at: iso(r.paid_at),
  }))
}

type HolderRow = {
  role: 'creator' | 'coproducer' | 'affiliate'
  account_id: string | null
  user_id: string
}

/** What the holder could withdraw now: the balance a pending or approved withdrawal draws on. */
async function availableOf(db: Executor, w: HolderRow): Promise<number> {
  if (w.role === 'creator') return (await creatorBalance(db, w.account_id!)).available
  if (w.role === 'coproducer') return (await coproducerBalance(db, w.user_id)).available
  return (await affiliateBalance(db, w.user_id)).available
}

/** Every withdrawal, newest first, by status (`open`: pending or approved), with its holder. */
export async function withdrawalHistory(db: Executor, query: WithdrawalHistoryQuery) {
  const status =
    query.status === 'open'
      ? (['pending', 'approved'] as const)
      : query.status
        ? ([query.status] as const)
        : undefined
  const rows = await repo.withdrawals(db, status ? [...status] : undefined, pageWindow(query))
  const page = rows.slice(0, query.limit)
  const data: AdminWithdrawalOut[] = []
  for (const w of page) {
    const open = w.status === 'pending' || w.status === 'approved'
    data.push({
      ...withdrawalOut(w),
      holder_name: w.holder_name,
      holder_email: w.holder_email,
      pix_key_full: w.pix_key,
      holder_available: open ? await availableOf(db, w) : null,
    })
  }
  return { data, page: query.page, limit: query.limit, has_more: rows.length > query.limit }
}
