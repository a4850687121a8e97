// Each webhook event in words a creator reads (pt-BR), in the order the form lists them.
import type { EventType } from '../../../modules/webhooks/events.ts'

export const EVENT_LABEL: Record<EventType, string> = {
  'order.created': 'Pedido criado (aguardando pagamento)',
  'order.paid': 'Pedido pago',
  'order.expired': 'Pedido expirado (Pix ou boleto não pago a tempo)',
  'order.refunded': 'Pedido reembolsado',
  'order.chargeback': 'Pedido contestado (chargeback)',
  'refund.requested': 'Reembolso pedido ou com status alterado',
  'member.enrolled': 'Novo membro (comprador matriculado no produto)',
  'access.granted': 'Acesso liberado',
  'access.revoked': 'Acesso revogado',
  'affiliate.commission_earned': 'Comissão de afiliado gerada',
  'subscription.created': 'Assinatura criada',
  'subscription.renewed': 'Assinatura renovada',
  'subscription.past_due': 'Assinatura com pagamento atrasado',
  'subscription.canceled': 'Assinatura cancelada',
  'withdrawal.updated': 'Saque com status alterado',
}

/** An event's words, also for the test event and names the form does not offer. */
export const eventLabel = (event: string): string =>
  event === 'webhook.test'
    ? 'Evento de teste'
    : ((EVENT_LABEL as Record<string, string>)[event] ?? event)
