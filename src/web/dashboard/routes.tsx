// /dashboard: the creator's page (SPEC §12), first version: balance, withdrawals and the PIX
// key (with their forms), recent sales, products with their checkout links, the webhook
// endpoints with their latest deliveries, and the API keys. Server-rendered from the same
// services as the API; every write goes through the API (browser/main.ts), so the page holds
// no rule.
import type { VNode } from 'preact'
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
import { browserScript } from '../assets.ts'
import { Layout } from '../layout.tsx'
import { LoginForm } from '../login-forms.tsx'
import { type Children, render } from '../render.tsx'
import * as show from './sections.tsx'

const RECENT = 10
const DELIVERIES_SHOWN = 5

const SCRIPT = browserScript('dashboard', new URL('./browser/main.ts', import.meta.url))

function Frame(props: { children: Children }): VNode {
  return (
    <Layout title="Painel" css={show.DASHBOARD_CSS}>
      <h1>Painel da Vitrine</h1>
      <p id="aviso" role="alert" aria-live="assertive" />
      {props.children}
      <script src={SCRIPT} />
    </Layout>
  )
}

function refusal(error: AppError) {
  if (error instanceof Unauthorized) {
    const login = (
      <Frame>
        <LoginForm />
      </Frame>
    )
    return { status: 401, html: render(login) }
  }
  // Logged in but without an account of their own (a buyer, an affiliate).
  if (error instanceof NotFound) {
    const none = (
      <Frame>
        <div class="card">
          <p>
            Este login não tem uma conta de produtor. Compras ficam na{' '}
            <a href="/members">área de membros</a>.
          </p>
        </div>
      </Frame>
    )
    return { status: 403, html: render(none) }
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
    const page = (
      <Frame>
        <show.Section id="t-saldo" title="Saldo">
          <show.Money balance={balance} accountId={accountId} />
        </show.Section>
        <show.Section id="t-pix" title="Chave Pix">
          <show.PixKey pix={profile} />
        </show.Section>
        <show.Section id="t-saques" title="Saques">
          <show.Withdrawals page={withdrawals} />
        </show.Section>
        <show.Section id="t-vendas" title="Vendas recentes">
          <show.Sales page={orders} productName={productName} />
        </show.Section>
        <show.Section id="t-produtos" title="Produtos">
          <show.Products page={products} />
        </show.Section>
        <show.Section id="t-webhooks" title="Webhooks">
          <show.Webhooks endpoints={endpoints} logs={logs} />
        </show.Section>
        <show.Section id="t-chaves" title="Chaves de API">
          <show.ApiKeys keys={keys} accountId={accountId} />
        </show.Section>
      </Frame>
    )
    return reply.type('text/html').send(render(page))
  })
}
