// How catalog values read on the dashboard (pt-BR): plan intervals, statuses, payment methods.
import { formatDecimal, toCents } from '../../../kit/money.ts'
import type { ProductOut } from '../../../modules/catalog/schema.ts'

type PlanOut = ProductOut['plans'][number]

export const PRODUCT_STATUS: Record<ProductOut['status'], string> = {
  active: 'ativo',
  archived: 'arquivado',
}

export const METHOD_LABEL: Record<ProductOut['payment_methods'][number], string> = {
  pix: 'Pix',
  card: 'Cartão de crédito',
  boleto: 'Boleto',
}

export const BILLING_LABEL: Record<ProductOut['billing'], string> = {
  one_time: 'Pagamento único',
  recurring: 'Assinatura (recorrente)',
}

/** "por mês", "a cada 3 meses", "por ano"; one-time plans: "pagamento único". */
export function intervalText(plan: Pick<PlanOut, 'interval' | 'interval_count'>): string {
  if (!plan.interval) return 'pagamento único'
  const n = plan.interval_count ?? 1
  if (plan.interval === 'month') return n === 1 ? 'por mês' : `a cada ${n} meses`
  return n === 1 ? 'por ano' : `a cada ${n} anos`
}

/** A price as the creator types it back into a field: "49,90" (the form reads the comma). */
export const priceInput = (price: number) => formatDecimal(toCents(price)).replace('.', ',')

/** 12,5% — percentages as the API answers them (at most two decimals). */
export const percentText = (percent: number) =>
  `${percent.toLocaleString('pt-BR', { maximumFractionDigits: 2 })}%`
