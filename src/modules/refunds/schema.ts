import { z } from 'zod'
import { PageQuery } from '../../kit/http/pagination.ts'

export const RefundBody = z.object({
  reason: z
    .string()
    .trim()
    .min(1, 'Informe o motivo do reembolso (de 1 a 500 caracteres)')
    .max(500, 'Informe o motivo do reembolso (de 1 a 500 caracteres)'),
})

export const REFUND_STATUSES = ['pending', 'completed', 'failed'] as const

export const RefundOut = z.object({
  id: z.string(),
  status: z.enum(REFUND_STATUSES),
  created_at: z.string(),
  order_id: z.string(),
  amount: z.number(),
  reason: z.string(),
  failure_reason: z.string().nullable(),
  completed_at: z.string().nullable(),
  failed_at: z.string().nullable(),
})
export type RefundOut = z.infer<typeof RefundOut>

export const RefundListQuery = PageQuery.extend({
  status: z.enum(REFUND_STATUSES).optional(),
  order_id: z.uuid().optional(),
})
export type RefundListQuery = z.infer<typeof RefundListQuery>
