import { z } from 'zod'
import { PageQuery } from '../../kit/http/pagination.ts'
import { Brl } from '../../kit/http/schemas.ts'
import { PIX_KEY_TYPES } from './pix-key.ts'

export const PixKeyBody = z.object({
  pix_key: z.string().min(1).max(140),
  pix_key_type: z.enum(PIX_KEY_TYPES),
})

export const PixKeySetOut = z.object({ success: z.boolean(), pix_verified: z.boolean() })

export const PIX_STATUSES = ['none', 'pending', 'verified', 'rejected'] as const

export const ProfileOut = z.object({
  id: z.uuid(),
  name: z.string(),
  email: z.string(),
  pix_key: z.string().nullable().describe('Masked'),
  pix_key_type: z.enum(PIX_KEY_TYPES).nullable(),
  pix_verified: z.boolean(),
  pix_status: z.enum(PIX_STATUSES),
  pix_rejection_reason: z.string().nullable(),
})

export const CreatorWithdrawalBody = z.object({ tenant_id: z.uuid(), amount: Brl })
export const PartnerWithdrawalBody = z.object({ amount: Brl })

export const WithdrawalCreatedOut = z.object({
  success: z.boolean(),
  withdrawal_id: z.uuid(),
  balance_before: z.number(),
})

export const WITHDRAWAL_STATUSES = ['pending', 'approved', 'paid', 'rejected'] as const

export const WithdrawalOut = z.object({
  id: z.uuid(),
  role: z.enum(['creator', 'coproducer', 'affiliate']),
  tenant_id: z.uuid().nullable(),
  user_id: z.uuid(),
  amount: z.number(),
  status: z.enum(WITHDRAWAL_STATUSES),
  admin_note: z.string().nullable(),
  pix_key: z.string().describe('Masked'),
  pix_key_type: z.enum(PIX_KEY_TYPES),
  created_at: z.string(),
  approved_at: z.string().nullable(),
  paid_at: z.string().nullable(),
  rejected_at: z.string().nullable(),
  transfer_in_progress: z
    .boolean()
    .describe(
      'Approved and its PIX transfer started, the outcome not yet known (the bank is processing it, or its answer is being looked up)',
    ),
  end_to_end_id: z
    .string()
    .nullable()
    .describe("The PIX's end-to-end id, recorded by the admin on a manual payout"),
})
export type WithdrawalOut = z.infer<typeof WithdrawalOut>

export const WithdrawalListQuery = PageQuery.extend({
  status: z.enum(WITHDRAWAL_STATUSES).optional(),
})
export type WithdrawalListQuery = z.infer<typeof WithdrawalListQuery>

const Reason = z.string().trim().min(1).max(500)
export const RejectWithdrawalBody = z.object({ admin_note: Reason })
export const RejectPixKeyBody = z.object({ reason: Reason })
export const PayWithdrawalBody = z
  .object({
    end_to_end_id: z
      .string()
      .max(100)
      .optional()
      .describe(
        'Manual payouts only (PAYOUT_PROVIDER=manual): the end-to-end id of the PIX the admin sent, E + ISPB + yyyyMMddHHmm + 11 alphanumerics',
      ),
  })
  // No body at all (automatic providers) reaches the schema as null.
  .nullish()

export const PixKeyListQuery = PageQuery.extend({
  status: z.enum(['pending', 'verified', 'rejected']).optional(),
})
export type PixKeyListQuery = z.infer<typeof PixKeyListQuery>

export const AdminPixKeyOut = z.object({
  user_id: z.uuid(),
  name: z.string(),
  email: z.string(),
  pix_key: z.string().describe('In full: the admin checks it against the owner'),
  pix_key_type: z.enum(PIX_KEY_TYPES),
  pix_status: z.enum(['pending', 'verified', 'rejected']),
  pix_rejection_reason: z.string().nullable(),
  updated_at: z.string(),
})

export const UserIdParams = z.object({ user_id: z.uuid() })
