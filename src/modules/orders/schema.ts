import { z } from 'zod'
import { PageQuery } from '../../kit/http/pagination.ts'

export const ORDER_STATUSES = [
  'pending',
  'paid',
  'refunded',
  'chargeback',
  'expired',
  'failed',
] as const

export const OrderOut = z.object({
  id: z.string(),
  status: z.enum(ORDER_STATUSES),
  amount: z.number(),
  currency: z.string(),
  buyer_email: z.string(),
  product_id: z.string(),
  created_at: z.string(),
  plan_id: z.string(),
  buyer_id: z.string(),
  payment_method: z.enum(['pix', 'card', 'boleto']),
  paid_at: z.string().nullable(),
  coupon_code: z.string().nullable(),
  affiliate_id: z.string().nullable(),
  affiliate_commission: z.number().nullable(),
  refunded_at: z.string().nullable(),
  subscription_id: z.string().nullable(),
  installments: z.number().describe('Card installments (1 for PIX and boleto)'),
  interest: z
    .number()
    .describe("The buyer's installment interest inside `amount` (the platform's; 0 when none)"),
})
export type OrderOut = z.infer<typeof OrderOut>

export const OrderListQuery = PageQuery.extend({
  status: z.enum(ORDER_STATUSES).optional(),
  payment_method: z.enum(['pix', 'card', 'boleto']).optional(),
  product_id: z.uuid().optional(),
  buyer_email: z.string().trim().toLowerCase().optional(),
  created_from: z.iso.datetime({ offset: true }).optional(),
  created_to: z.iso.datetime({ offset: true }).optional(),
})
export type OrderListQuery = z.infer<typeof OrderListQuery>
