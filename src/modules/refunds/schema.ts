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

/** The platform admin's view: a refund with what the worker and the gateway told us. */
export const AdminRefundOut = RefundOut.extend({
  account_id: z.string(),
  gateway_refund_id: z.string().nullable(),
  attempts: z.number(),
  last_error: z.string().nullable(),
  needs_attention_since: z.string().nullable(),
  completed_after_failure_at: z
    .string()
    .nullable()
    .describe('The gateway completed the refund after it had failed here (paid twice)'),
  charged_back_at: z
    .string()
    .nullable()
    .describe('The order was charged back after the refund completed (paid twice)'),
  admin_note: z.string().nullable(),
})
export type AdminRefundOut = z.infer<typeof AdminRefundOut>

export const AdminRefundListQuery = PageQuery.extend({
  needs_attention: z
    .enum(['true', 'false'])
    .optional()
    .transform((v) => v === 'true')
    .describe('true: only refunds flagged for a person'),
})
export type AdminRefundListQuery = z.infer<typeof AdminRefundListQuery>

export const SettleRefundBody = z.object({
  status: z.enum(['completed', 'failed']),
  note: z
    .string()
    .trim()
    .min(1, 'Informe uma nota (de 1 a 500 caracteres)')
    .max(500, 'Informe uma nota (de 1 a 500 caracteres)'),
})
