// The back office's search and withdrawal history (issue 12): read-only views for the admin.
import { z } from 'zod'
import { PageQuery } from '../../kit/http/pagination.ts'
import { WITHDRAWAL_STATUSES, WithdrawalOut } from '../payouts/schema.ts'

const SearchText = z
  .string()
  .trim()
  .min(1)
  .max(254)
  .describe('An id (UUID), an e-mail (exact) or part of a name')

export const AccountSearchQuery = PageQuery.omit({ starting_after: true }).extend({ q: SearchText })
export type AccountSearchQuery = z.infer<typeof AccountSearchQuery>

export const OrderSearchQuery = PageQuery.omit({ starting_after: true }).extend({
  q: SearchText.describe("An order id (UUID) or the buyer's e-mail (exact)"),
})
export type OrderSearchQuery = z.infer<typeof OrderSearchQuery>

export const AdminAccountOut = z.object({
  id: z.uuid(),
  name: z.string(),
  created_at: z.string(),
  owner: z.object({ id: z.uuid(), name: z.string(), email: z.string() }).nullable(),
})
export type AdminAccountOut = z.infer<typeof AdminAccountOut>

export const AdminOrderOut = z.object({
  id: z.uuid(),
  status: z.enum(['pending', 'paid', 'refunded', 'chargeback', 'expired', 'failed']),
  amount: z.number(),
  currency: z.string(),
  payment_method: z.enum(['pix', 'card', 'boleto']),
  buyer_name: z.string(),
  buyer_email: z.string(),
  product_id: z.uuid(),
  product_name: z.string(),
  account_id: z.uuid(),
  account_name: z.string(),
  created_at: z.string(),
  paid_at: z.string().nullable(),
})
export type AdminOrderOut = z.infer<typeof AdminOrderOut>

export const WithdrawalHistoryQuery = PageQuery.omit({ starting_after: true }).extend({
  status: z
    .enum([...WITHDRAWAL_STATUSES, 'open'])
    .optional()
    .describe('`open` = pending or approved (what is still to decide or pay); none = every status'),
})
export type WithdrawalHistoryQuery = z.infer<typeof WithdrawalHistoryQuery>

export const AdminWithdrawalOut = WithdrawalOut.extend({
  holder_name: z.string(),
  holder_email: z.string(),
  pix_key_full: z
    .string()
    .describe(
      'The key in full: the admin checks it against its holder, or types it to pay by hand',
    ),
  holder_available: z
    .number()
    .nullable()
    .describe(
      "The holder's available balance now (creator: the account's; co-producer, affiliate: their own), for pending and approved withdrawals; null otherwise",
    ),
})
export type AdminWithdrawalOut = z.infer<typeof AdminWithdrawalOut>
