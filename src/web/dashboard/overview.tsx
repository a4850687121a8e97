// /dashboard: the overview — the first steps of a new account, the last 30 days (revenue,
// paid orders, conversion, a revenue chart), the balance and the latest sales.
import { productNames } from '../../modules/catalog/service.ts'
import { creatorBalance } from '../../modules/ledger/balances.ts'
import { listOrders } from '../../modules/orders/service.ts'
import { profileOf } from '../../modules/payouts/pix-keys.ts'
import { accountStats } from '../../modules/stats/service.ts'
import type { RouteModule } from '../../routes.ts'
import { Sales } from './orders/sales.tsx'
import { RevenueChart } from './overview/chart.tsx'
import { allDone, FirstStepsList } from './overview/first-steps.tsx'
import { dashboardPage } from './page.tsx'
import { brl, Section } from './ui.tsx'

/** "12,5 %" from 0.125; a dash without sessions. */
const percent = (ratio: number | null) =>
  ratio === null ? '—' : `${(ratio * 100).toLocaleString('pt-BR', { maximumFractionDigits: 1 })} %`

export const overviewPage: RouteModule = (app, deps) =>
  dashboardPage(app, deps, { path: '', section: '' }, async ({ accountId, userId }) => {
    const [balance, orders, productName, stats, profile] = await Promise.all([
      creatorBalance(deps.db, accountId),
      listOrders(deps.db, accountId, { page: 1, limit: 10 }),
      productNames(deps.db, accountId),
      accountStats(deps.db, deps, accountId, {}),
      profileOf(deps.db, userId),
    ])
    const steps = {
      pixKey: profile.pix_status !== 'none',
      product: productName.size > 0,
      // Any order that was ever paid, refunded since or not (the balance's O(1) total).
      sale: balance.paid_total > 0,
    }
    return {
      title: 'Visão geral',
      body: (
        <>
          {allDone(steps) ? null : (
            <Section id="t-primeiros" title="Primeiros passos">
              <FirstStepsList steps={steps} />
            </Section>
          )}
          <Section id="t-periodo" title="Últimos 30 dias">
            <dl>
              <dt>Receita</dt>
              <dd>{brl(stats.revenue)}</dd>
              <dt>Pedidos pagos</dt>
              <dd>{stats.paid_orders}</dd>
              <dt>Sessões de checkout</dt>
              <dd>{stats.sessions}</dd>
              <dt>Conversão (sessões → pedidos pagos)</dt>
              <dd>{percent(stats.conversion)}</dd>
            </dl>
            <RevenueChart stats={stats} />
          </Section>
          <Section id="t-saldo" title="Saldo">
            <p class="stat">{brl(balance.available)}</p>
            <p class="muted">
              disponível para saque · <a href="/dashboard/saldo">ver saldo e saques</a>
            </p>
          </Section>
          <Section id="t-vendas" title="Vendas recentes">
            <Sales page={orders} productName={productName} />
            {orders.data.length ? (
              <p>
                <a href="/dashboard/pedidos">Ver todos os pedidos</a>
              </p>
            ) : null}
          </Section>
        </>
      ),
    }
  })
