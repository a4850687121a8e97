import type {
  FastifyBaseLogger,
  FastifyInstance,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerDefault,
} from 'fastify'
import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import type { Deps } from './deps.ts'
import { manualGrantRoutes } from './modules/access/manual-grant-routes.ts'
import { accessRoutes } from './modules/access/routes.ts'
import { passwordRoutes } from './modules/accounts/password.ts'
import { accountRoutes } from './modules/accounts/routes.ts'
import { accountSettingsRoutes } from './modules/accounts/settings.ts'
import { adminRoutes } from './modules/admin/routes.ts'
import { affiliateRoutes } from './modules/affiliates/routes.ts'
import { buyerRoutes } from './modules/buyers/routes.ts'
import { catalogRoutes } from './modules/catalog/routes.ts'
import { checkoutRoutes } from './modules/checkout/routes.ts'
import { coproducerRoutes } from './modules/coproducers/routes.ts'
import { emailRoutes } from './modules/email/routes.ts'
import { healthRoutes } from './modules/health/routes.ts'
import { ledgerRoutes } from './modules/ledger/routes.ts'
import { orderExportRoutes } from './modules/orders/export-routes.ts'
import { orderRoutes } from './modules/orders/routes.ts'
import { asaasAuthorizationRoutes } from './modules/payments/gateways/asaas/authorization-routes.ts'
import { paymentRoutes } from './modules/payments/routes.ts'
import { sandboxRoutes } from './modules/payments/sandbox-routes.ts'
import { payoutAdminRoutes } from './modules/payouts/admin-routes.ts'
import { payoutRoutes } from './modules/payouts/routes.ts'
import { refundRoutes } from './modules/refunds/routes.ts'
import { statsRoutes } from './modules/stats/routes.ts'
import { subscriptionRoutes } from './modules/subscriptions/routes.ts'
import { webhookRoutes } from './modules/webhooks/routes.ts'
import { adminPages } from './web/admin.tsx'
import { assetRoutes } from './web/assets.ts'
import { authPages } from './web/auth/pages.tsx'
import { checkoutPages } from './web/checkout/routes.ts'
import { dashboardPages } from './web/dashboard/routes.tsx'
import { docsPages } from './web/docs.tsx'
import { legalPages } from './web/legal.tsx'
import { membersPages } from './web/members.tsx'
import { passwordPages } from './web/password.tsx'

export type AppInstance = FastifyInstance<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  FastifyBaseLogger,
  ZodTypeProvider
>

export type RouteModule = (app: AppInstance, deps: Deps) => Promise<void> | void

/** Every module's HTTP surface, in one list. A worker process serves only /health. */
export function routesFor(role: Deps['config']['role']): RouteModule[] {
  if (role === 'worker') return [healthRoutes]
  return [
    healthRoutes,
    accountRoutes,
    accountSettingsRoutes,
    catalogRoutes,
    checkoutRoutes,
    paymentRoutes,
    asaasAuthorizationRoutes,
    sandboxRoutes,
    orderRoutes,
    orderExportRoutes,
    statsRoutes,
    manualGrantRoutes,
    accessRoutes,
    webhookRoutes,
    emailRoutes,
    membersPages,
    checkoutPages,
    ledgerRoutes,
    affiliateRoutes,
    coproducerRoutes,
    refundRoutes,
    subscriptionRoutes,
    passwordRoutes,
    passwordPages,
    buyerRoutes,
    authPages,
    payoutRoutes,
    payoutAdminRoutes,
    adminRoutes,
    adminPages,
    dashboardPages,
    assetRoutes,
    docsPages,
    legalPages,
  ]
}
