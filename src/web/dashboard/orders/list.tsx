// /dashboard/pedidos: the orders, filtered by a GET form (status, method, product, buyer e-mail,
// dates), newest first, "Mais antigos" by keyset cursor, and the CSV of the same filters.
import type { VNode } from 'preact'
import { productNames } from '../../../modules/catalog/service.ts'
import { ORDER_STATUSES } from '../../../modules/orders/schema.ts'
import { listOrders } from '../../../modules/orders/service.ts'
import type { RouteModule } from '../../../routes.ts'
import { dashboardPage } from '../page.tsx'
import { Field, Section } from '../ui.tsx'
import { apiFilters, type OrdersPageQuery, parseOrdersQuery, queryString } from './filters.ts'
import { ORDER_STATUS, PAYMENT_METHOD } from './labels.ts'
import { Sales } from './sales.tsx'

const PAGE_SIZE = 20

function Select(props: {
  id: string
  label: string
  name: string
  value: string | undefined
  options: [string, string][]
}): VNode {
  return (
    <p>
      <label for={props.id}>{props.label}</label>
      <select id={props.id} name={props.name}>
        <option value="">Todos</option>
        {props.options.map(([value, text]) => (
          <option key={value} value={value} selected={props.value === value}>
            {text}
          </option>
        ))}
      </select>
    </p>
  )
}

function Filters(props: { q: OrdersPageQuery; products: [string, string][] }): VNode {
  const { q } = props
  return (
    <form method="get" action="/dashboard/pedidos" aria-labelledby="t-filtros">
      <div class="filters">
        <Select
          id="f-status"
          label="Status"
          name="status"
          value={q.status}
          options={ORDER_STATUSES.map((s) => [s, ORDER_STATUS[s]!])}
        />
        <Select
          id="f-metodo"
          label="Forma de pagamento"
          name="payment_method"
          value={q.payment_method}
          options={Object.entries(PAYMENT_METHOD)}
        />
        <Select
          id="f-produto"
          label="Produto"
          name="product_id"
          value={q.product_id}
          options={props.products}
        />
        <Field
          id="f-email"
          label="E-mail do comprador"
          name="buyer_email"
          type="email"
          value={q.buyer_email}
        />
        <Field id="f-de" label="De" name="de" type="date" value={q.de} />
        <Field id="f-ate" label="Até" name="ate" type="date" value={q.ate} />
      </div>
      <p class="actions">
        <button type="submit">Filtrar</button>
        <a href="/dashboard/pedidos">Limpar filtros</a>
      </p>
    </form>
  )
}

export const ordersListPage: RouteModule = (app, deps) =>
  dashboardPage(
    app,
    deps,
    { path: '/pedidos', section: '/pedidos' },
    async ({ accountId, query }) => {
      const q = parseOrdersQuery(query)
      const filters = apiFilters(q)
      const [orders, productName] = await Promise.all([
        listOrders(deps.db, accountId, { ...filters, page: 1, limit: PAGE_SIZE }),
        productNames(deps.db, accountId),
      ])
      const kept = {
        status: q.status,
        payment_method: q.payment_method,
        product_id: q.product_id,
        buyer_email: q.buyer_email,
        de: q.de,
        ate: q.ate,
      }
      const { starting_after: _, ...exportFilters } = filters
      const filtered = Object.values(kept).some(Boolean)
      const last = orders.data.at(-1)
      return {
        title: 'Pedidos',
        body: (
          <>
            <Section id="t-filtros" title="Filtros">
              <Filters q={q} products={[...productName]} />
            </Section>
            <Section id="t-pedidos" title={filtered ? 'Pedidos filtrados' : 'Todos os pedidos'}>
              <Sales
                page={orders}
                productName={productName}
                detailed
                empty={
                  q.starting_after
                    ? 'Não há pedidos mais antigos.'
                    : filtered
                      ? 'Nenhum pedido com esses filtros. Mude ou limpe os filtros.'
                      : 'Nenhum pedido ainda. Compartilhe o link de checkout de um produto para vender.'
                }
              />
              <nav class="pager" aria-label="Páginas de pedidos">
                {q.starting_after ? (
                  <a href={`/dashboard/pedidos${queryString(kept)}`}>Mais recentes</a>
                ) : null}
                {orders.has_more && last ? (
                  <a
                    href={`/dashboard/pedidos${queryString({ ...kept, starting_after: last.id })}`}
                  >
                    Mais antigos
                  </a>
                ) : null}
              </nav>
              <p>
                <a
                  href={`/api/v1/orders/export.csv${queryString(exportFilters as Record<string, string | undefined>)}`}
                  download
                >
                  Baixar planilha (CSV) destes filtros
                </a>
              </p>
            </Section>
          </>
        ),
      }
    },
  )
