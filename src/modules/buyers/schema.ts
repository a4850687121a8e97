// The buyer's own API (members area): purchases, subscriptions, cancel, refund request.
import { z } from 'zod'
import { PageQuery } from '../../kit/http/pagination.ts'
import { ORDER_STATUSES } from '../orders/schema.ts'
import { SUBSCRIPTION_STATUSES } from '../subscriptions/schema.ts'

export const PurchaseListQuery = PageQuery

export const PurchaseOut = z.object({
  order_id: z.string(),
  product_id: z.string(),
  product_name: z.string(),
  amount: z.number().describe('BRL'),
  status: z.enum(ORDER_STATUSES),
  payment_method: z.string(),
  installments: z.number().int(),
  created_at: z.string(),
  paid_at: z.string().nullable(),
  refunded_at: z.string().nullable(),
  refund: z
    .object({ id: z.string(), status: z.enum(['pending', 'completed']), created_at: z.string() })
    .nullable()
    .describe('The live refund request of this order, if any'),
  refundable_until: z
    .string()
    .nullable()
    .describe('End of the guarantee period (paid orders): paid_at + max(7, guarantee_days) days'),
  can_refund: z.boolean().describe('Paid, inside the guarantee period, no live refund'),
})
export type PurchaseOut = z.infer<typeof PurchaseOut>

export const MySubscriptionOut = z.object({
  id: z.string(),
  product_id: z.string(),
  product_name: z.string(),
  status: z.enum(SUBSCRIPTION_STATUSES),
  amount: z.number().describe('BRL'),
  interval: z.enum(['month', 'year']),
  interval_count: z.number().int(),
  current_period_end: z.string(),
  cancel_at_period_end: z.boolean(),
  canceled_at: z.string().nullable(),
})
export type MySubscriptionOut = z.infer<typeof MySubscriptionOut>

export const BuyerRefundOut = z.object({
  id: z.string(),
  order_id: z.string(),
  status: z.enum(['pending', 'completed', 'failed']),
  created_at: z.string(),
})
