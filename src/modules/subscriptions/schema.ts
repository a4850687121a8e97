import { z } from 'zod'
import { PageQuery } from '../../kit/http/pagination.ts'

export const SUBSCRIPTION_STATUSES = ['active', 'past_due', 'canceled'] as const

export const SubscriptionOut = z.object({
  id: z.string(),
  status: z.enum(SUBSCRIPTION_STATUSES),
  product_id: z.string(),
  plan_id: z.string(),
  buyer_id: z.string(),
  buyer_email: z.string(),
  payment_method: z.enum(['pix', 'card', 'boleto']),
  amount: z.number().describe('what each renewal charges (BRL)'),
  currency: z.string(),
  interval: z.enum(['month', 'year']),
  interval_count: z.number(),
  current_period_start: z.string(),
  current_period_end: z.string(),
  cancel_at_period_end: z.boolean(),
  past_due_since: z.string().nullable(),
  canceled_at: z.string().nullable(),
  cancel_reason: z.enum(['canceled', 'unpaid', 'refunded', 'chargeback']).nullable(),
  first_order_id: z.string(),
  created_at: z.string(),
})
export type SubscriptionOut = z.infer<typeof SubscriptionOut>

export const SubscriptionListQuery = PageQuery.extend({
  status: z.enum(SUBSCRIPTION_STATUSES).optional(),
  product_id: z.uuid().optional(),
})

export const CancelBody = z
  .object({
    immediately: z
      .boolean()
      .optional()
      .describe('end now (access revoked at once) instead of at the period end'),
  })
  .nullish()
