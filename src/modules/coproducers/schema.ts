import { z } from 'zod'
import { Percent } from '../../kit/http/schemas.ts'
import { Email } from '../affiliates/schema.ts'

export const EnrollCoproducerBody = z.object({ email: Email, split_percent: Percent })
export type EnrollCoproducerInput = z.infer<typeof EnrollCoproducerBody>

export const CoproducerOut = z.object({
  id: z.string(),
  user_id: z.string(),
  split_percent: z.number(),
  product_id: z.string(),
  name: z.string(),
  email: z.string(),
  created_at: z.string(),
})
export type CoproducerOut = z.infer<typeof CoproducerOut>
