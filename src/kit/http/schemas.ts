// Zod pieces shared by every module's request and response schemas.
import { z } from 'zod'
import { formatBrl, isBrlAmount, MAX_AMOUNT_CENTS, percentToBasisPoints, toBrl } from '../money.ts'

/**
 * BRL as a JSON number with at most two decimals (SPEC §1), at most R$ 99.999.999,99 (every
 * amount the API takes: prices, coupons, withdrawals); converted to centavos in services.
 */
export const Brl = z
  .number()
  .max(toBrl(MAX_AMOUNT_CENTS), {
    message: `Valor acima do máximo de ${formatBrl(MAX_AMOUNT_CENTS)}`,
    abort: true,
  })
  .refine(isBrlAmount, { message: 'Valor inválido: use reais com no máximo duas casas decimais' })
  .describe(`BRL, at most two decimals, at most ${toBrl(MAX_AMOUNT_CENTS)}`)

function isPercent(value: number): boolean {
  try {
    return percentToBasisPoints(value) > 0
  } catch {
    return false
  }
}

/** A percentage: more than 0, at most 100, at most two decimals (stored as basis points). */
export const Percent = z.number().refine(isPercent, {
  message: 'Percentual inválido: use de 0,01 a 100, com até duas casas decimais',
})

export const IdParams = z.object({ id: z.uuid() })

/** A response without a body (204). */
export const NoContent = z.null().describe('No content')

/** A validation problem: which field (dotted path) and what is wrong with it. */
const Detail = z.object({ path: z.string(), message: z.string() })

/** Every error body (SPEC §1): `{ error, details? }`; `details` only for validation. */
export const ErrorOut = z.object({ error: z.string(), details: z.array(Detail).optional() })

/** Payout and profile endpoints answer `{ success: false, error }` (SPEC §1). */
export const PayoutErrorOut = z.object({
  success: z.literal(false),
  error: z.string(),
  details: z.array(Detail).optional(),
})

/** ISO 8601 UTC or null. */
export const iso = (date: Date | null): string | null => date?.toISOString() ?? null
