import { z } from 'zod'
import { percentToBasisPoints } from '../../kit/money.ts'

function isPercent(value: number): boolean {
  try {
    return percentToBasisPoints(value) > 0
  } catch {
    return false
  }
}

/** A share in percent: more than 0, at most 100, at most two decimals. */
export const Percent = z.number().refine(isPercent, {
  message: 'Percentual inválido: use de 0,01 a 100, com até duas casas decimais',
})

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
