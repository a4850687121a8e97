import { z } from 'zod'

export const AccessOut = z.object({
  id: z.string(),
  product_id: z.string(),
  order_id: z.string().nullable().describe('null for an access granted by hand'),
  status: z.enum(['active', 'revoked']),
  granted_at: z.string(),
  revoked_at: z.string().nullable(),
})

export const MemberOut = z.object({
  id: z.string(),
  name: z.string(),
  email: z.string(),
  created_at: z.string(),
  access: z.array(AccessOut),
})
export type MemberOut = z.infer<typeof MemberOut>

export const RevokeParams = z.object({ id: z.uuid(), access_id: z.uuid() })
export const RevokeBody = z
  .object({ reason: z.string().trim().min(1).max(500).optional() })
  .nullish()
