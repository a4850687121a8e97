/** Every event a webhook endpoint can subscribe to (SPEC §10). */
export const EVENT_TYPES = [
  'order.paid',
  'member.enrolled',
  'access.granted',
  'access.revoked',
  'refund.requested',
  'affiliate.commission_earned',
  'order.created',
  'order.refunded',
  'order.expired',
  'subscription.created',
  'subscription.renewed',
  'subscription.past_due',
  'subscription.canceled',
  'withdrawal.updated',
  'order.chargeback',
] as const
export type EventType = (typeof EVENT_TYPES)[number]
