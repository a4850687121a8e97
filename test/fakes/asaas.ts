// A faithful local fake of the Asaas API v3, for tests and for running the service by hand
// (scripts/fake-asaas.ts). What it follows and what it assumes: docs/gateways/asaas.md.
export { FAKE_PIX_KEY, pixTxid } from './asaas/artifacts.ts'
export { APPROVED_CARD, DECLINED_CARDS } from './asaas/payments.ts'
export {
  DEFAULT_API_KEY,
  type FakeAsaas,
  type FakeAsaasOptions,
  type RecordedRequest,
  type RequestMatch,
  startFakeAsaas,
} from './asaas/server.ts'
export type { DeliveryAttempt, WebhookOptions } from './asaas/webhooks.ts'
