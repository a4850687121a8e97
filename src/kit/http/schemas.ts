// Zod pieces shared by every module's request and response schemas.
import { z } from 'zod'
import { isBrlAmount } from '../money.ts'

/** BRL as a JSON number with at most two decimals (SPEC §1); converted to centavos in services. */
export const Brl = z
  .number()
  .refine(isBrlAmount, { message: 'Valor inválido: use reais com no máximo duas casas decimais' })
  .describe('BRL, at most two decimals')

export const IdParams = z.object({ id: z.uuid() })

export const ErrorOut = z.object({ error: z.string(), details: z.array(z.unknown()).optional() })

/** ISO 8601 UTC or null. */
export const iso = (date: Date | null): string | null => date?.toISOString() ?? null
