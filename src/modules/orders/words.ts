// What Brazilians read for an order's status and payment method, written once: the dashboard,
// the members area, the back office, the CSV export use these words. Types only are imported,
// so browser code may bundle it.
import type { OrderStatus } from '../../kit/db-schema.ts'

export const ORDER_STATUS_PT: Record<OrderStatus, string> = {
  pending: 'aguardando pagamento',
  paid: 'pago',
  failed: 'recusado',
  expired: 'expirado',
  refunded: 'reembolsado',
  chargeback: 'contestado',
}

export const PAYMENT_METHOD_PT: Record<string, string> = {
  pix: 'Pix',
  card: 'cartão',
  boleto: 'boleto',
}

/** The same words as a label that starts a line ("Pago", "Cartão"). */
export function capitalizedWords<K extends string>(words: Record<K, string>): Record<K, string> {
  const entries = Object.entries(words) as [K, string][]
  return Object.fromEntries(
    entries.map(([key, word]) => [key, word.charAt(0).toUpperCase() + word.slice(1)]),
  ) as Record<K, string>
}
