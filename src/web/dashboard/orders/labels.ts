// How the sales pages name statuses and methods, in the creator's words.
import { ORDER_STATUS_PT, PAYMENT_METHOD_PT } from '../../../modules/orders/words.ts'

export const ORDER_STATUS = ORDER_STATUS_PT
export const PAYMENT_METHOD = PAYMENT_METHOD_PT

export const REFUND_STATUS: Record<string, string> = {
  pending: 'em andamento',
  completed: 'concluído',
  failed: 'falhou',
}
