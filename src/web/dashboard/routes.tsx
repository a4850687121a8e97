// /dashboard: the creator's business in the browser (SPEC §12, issue 12). One page per section
// (web/dashboard/nav.ts), each server-rendered from the services the API uses; every write goes
// through the HTTP API (browser/forms.ts), so the pages hold no rule.
import type { RouteModule } from '../../routes.ts'
import { apiKeysPage } from './api-keys.tsx'
import { balancePage } from './balance.tsx'
import { couponsPage } from './coupons/page.tsx'
import { membersPage } from './members/list.tsx'
import { orderDetailPage } from './orders/detail.tsx'
import { ordersListPage } from './orders/list.tsx'
import { overviewPage } from './overview.tsx'
import { partnersPage } from './partners/page.tsx'
import { productEditPage, productNewPage } from './products/editor.tsx'
import { productListPage } from './products/list.tsx'
import { settingsPage } from './settings.tsx'
import { subscriptionsPage } from './subscriptions/list.tsx'
import { webhookPage } from './webhooks/endpoint.tsx'
import { webhooksPage } from './webhooks.tsx'

export const dashboardPages: RouteModule = (app, deps) => {
  for (const register of [
    overviewPage,
    // Catalog (products, coupons, affiliates and co-producers).
    productListPage,
    productNewPage,
    productEditPage,
    couponsPage,
    partnersPage,
    // Sales: orders, members, subscriptions.
    ordersListPage,
    orderDetailPage,
    membersPage,
    subscriptionsPage,
    // Money and integrations (balance, withdrawals, PIX key, webhooks, API keys).
    balancePage,
    webhooksPage,
    webhookPage,
    apiKeysPage,
    settingsPage,
  ])
    register(app, deps)
}
