import type { FastifyBaseLogger } from 'fastify'
import type { Config } from './config.ts'
import type { Clock } from './kit/clock.ts'
import type { Database, Db } from './kit/db.ts'
import type { MailHandoff } from './modules/email/handoff.ts'
import type { PaymentGateway } from './modules/payments/gateway.ts'
import type { PayoutProvider } from './modules/payouts/provider.ts'
import type { DeliveryHandoff } from './modules/webhooks/handoff.ts'

/** Everything a route, service or worker may need, built once at start. */
export interface Deps {
  config: Config
  database: Database
  db: Db
  clock: Clock
  appSecret: string
  gateway: PaymentGateway
  payouts: PayoutProvider
  /** Webhook deliveries handed from the code that writes events to this process's worker. */
  deliveryHandoff: DeliveryHandoff
  /** Mails handed from the code that writes them to this process's e-mail worker. */
  mailHandoff: MailHandoff
  log: FastifyBaseLogger
}

/**
 * What code that writes events or mails needs: the time, and this process's hand-offs (a row
 * written without them is unclaimed, left to a worker's poll — safe, but slower and dearer;
 * so they are required, not optional).
 */
export type Outbox = Pick<Deps, 'clock' | 'mailHandoff' | 'deliveryHandoff'>
