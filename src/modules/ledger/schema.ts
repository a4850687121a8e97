import { z } from 'zod'

/** SPEC §8 [seed fields]: the creator's balance per account, in BRL. */
export const CreatorBalanceOut = z.object({
  available: z.number(),
  paid_total: z.number(),
  refunded_total: z.number(),
  withdrawn_total: z.number(),
  coproducer_owed: z.number(),
  affiliate_owed: z.number(),
})

export const CoproducerBalanceOut = z.object({
  available: z.number(),
  earned_total: z.number(),
  refunded_total: z.number(),
  withdrawn: z.number(),
})

export const AffiliateBalanceOut = z.object({
  available: z.number(),
  paid_total: z.number(),
  rejected_total: z.number(),
  pending_count: z.number().int(),
  withdrawn: z.number(),
})

export const BalanceQuery = z.object({
  tenant_id: z
    .uuid()
    .optional()
    .describe("The account; default: the key's, or the session's first"),
})
