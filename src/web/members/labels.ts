// The members area's words for states and dates (pt-BR, Brasília time).
import type { SubscriptionStatus } from '../../kit/db-schema.ts'
import { capitalizedWords, ORDER_STATUS_PT, PAYMENT_METHOD_PT } from '../../modules/orders/words.ts'

export const ORDER_STATUS = capitalizedWords(ORDER_STATUS_PT)

export const SUBSCRIPTION_STATUS: Record<SubscriptionStatus, string> = {
  active: 'Ativa',
  past_due: 'Pagamento pendente',
  canceled: 'Cancelada',
}

export const PAYMENT_METHOD = capitalizedWords(PAYMENT_METHOD_PT)

export const INTERVAL: Record<'month' | 'year', [string, string]> = {
  month: ['mês', 'meses'],
  year: ['ano', 'anos'],
}

const DATE = new Intl.DateTimeFormat('pt-BR', {
  timeZone: 'America/Sao_Paulo',
  day: '2-digit',
  month: '2-digit',
  year: 'numeric',
})

/** dd/mm/aaaa in Brasília time. */
export const formatDate = (date: Date) => DATE.format(date)
