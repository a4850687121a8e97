// /dashboard: the creator's page (SPEC §12), first version: balance, withdrawals and the PIX
// key (with their forms), recent sales, products with their checkout links, the webhook
// endpoints with their latest deliveries, and the API keys. Server-rendered from the same
// services as the API; every write goes through the API (client.ts), so the page holds no rule.
import { type AppError, NotFound, Unauthorized } from '../../kit/errors.ts'
import { accountActorOf } from '../../kit/http/guard.ts'
import { listApiKeys } from '../../modules/accounts/service.ts'
import { listProducts } from '../../modules/catalog/service.ts'
import { creatorBalance } from '../../modules/ledger/balances.ts'
import { listOrders } from '../../modules/orders/service.ts'
import { profileOf } from '../../modules/payouts/pix-keys.ts'
import { listWithdrawals } from '../../modules/payouts/withdrawals.ts'
import { listDeliveries, listEndpoints } from '../../modules/webhooks/service.ts'
import type { RouteModule } from '../../routes.ts'
import { html, page, type Safe } from '../html.ts'
import { loginForm } from '../session-ui.ts'
import { DASHBOARD_CSS, DASHBOARD_SCRIPT } from './client.ts'
import * as show from './sections.ts'

const RECENT = 10
const DELIVERIES_SHOWN = 5

const frame = (body: Safe) =>
  page(
    'Painel',
    html`<h1>Painel da Vitrine</h1><p id="aviso" role="alert" aria-live="assertive"></p>
${body}${DASHBOARD_SCRIPT}`,
    DASHBOARD_CSS,
  )

function refusal(error: AppError) {
  if (error instanceof Unauthorized) return { status: 401, html: frame(loginForm) }
  // Logged in but without an account of their own (a buyer, an affiliate).
  if (error instanceof NotFound) {
    const none = html`<div class="card"><p>Este login não tem uma conta de produtor. Compras ficam na <a href="/members">área de membros</a>.</p></div>`
    return { status: 403, html: frame(none) }
  }
  return undefined
}

export const dashboardPages: RouteModule = (app, deps) => {
  const config = { guard: { account: 'read:orders' }, deniedPage: refusal } as const
  app.get('/dashboard', { schema: { hide: true }, config }, async (request, reply) => {
    const { accountId, userId } = accountActorOf(request)
    const recent = { page: 1, limit: RECENT }
    const [balance, profile, withdrawals, orders, products, endpoints, keys] = await Promise.all([
      creatorBalance(deps.db, accountId),
      profileOf(deps.db, userId),
      listWithdrawals(deps.db, { userId }, recent),
      listOrders(deps.db, accountId, recent),
      listProducts(deps.db, deps, accountId, { page: 1, limit: 50 }),
      listEndpoints(deps.db, accountId, recent),
      listApiKeys(deps.db, accountId),
    ])
    const logs = await Promise.all(
      endpoints.data.map((e) =>
        listDeliveries(deps.db, accountId, e.id, { page: 1, limit: DELIVERIES_SHOWN }),
      ),
    )
    const productName = new Map(products.data.map((p) => [p.id, p.name]))
    const body = html`${show.section('t-saldo', 'Saldo', show.money(balance, accountId))}
${show.section('t-pix', 'Chave Pix', show.pixKey(profile))}
${show.section('t-saques', 'Saques', show.withdrawals(withdrawals))}
${show.section('t-vendas', 'Vendas recentes', show.sales(orders, productName))}
${show.section('t-produtos', 'Produtos', show.products(products))}
${show.section('t-webhooks', 'Webhooks', show.webhooks(endpoints, logs))}
${show.section('t-chaves', 'Chaves de API', show.apiKeys(keys, accountId))}`
    return reply.type('text/html').send(frame(body))
  })
}
