import { z } from 'zod'
import { Percent } from '../../kit/http/schemas.ts'

const Email = z.string().trim().toLowerCase().pipe(z.email().max(254))

export const EnrollAffiliateBody = z.object({ email: Email, commission_percent: Percent })
export type EnrollAffiliateInput = z.infer<typeof EnrollAffiliateBody>

export const PatchAffiliateBody = z.object({ commission_percent: Percent })

export const AffiliateParams = z.object({ id: z.uuid(), affiliate_id: z.uuid() })

export const AffiliateOut = z.object({
  id: z.string(),
  user_id: z.string(),
  code: z.string(),
  commission_percent: z.number(),
  product_id: z.string(),
  name: z.string(),
  email: z.string(),
  referral_url: z.string().describe('The checkout link that credits this affiliate'),
  created_at: z.string(),
  updated_at: z.string(),
})
export type AffiliateOut = z.infer<typeof AffiliateOut>

export { Email }
