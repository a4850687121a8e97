// /dashboard/produtos: every product with its plans, status and checkout link (copy button),
// "Editar" and "Novo produto"; without products, the first steps to start selling.
import type { VNode } from 'preact'
import type { ProductOut } from '../../../modules/catalog/schema.ts'
import { listProducts } from '../../../modules/catalog/service.ts'
import type { RouteModule } from '../../../routes.ts'
import { dashboardPage } from '../page.tsx'
import { brl, CopyButton, Section } from '../ui.tsx'
import { intervalText, PRODUCT_STATUS } from './labels.ts'

function ProductItem({ product }: { product: ProductOut }): VNode {
  const archived = product.status === 'archived'
  return (
    <li>
      <p class="row">
        <strong>{product.name}</strong>
        <span class="badge">{PRODUCT_STATUS[product.status]}</span>
      </p>
      <ul>
        {product.plans.map((plan) => (
          <li key={plan.id}>{`${plan.name}: ${brl(plan.price)} ${intervalText(plan)}`}</li>
        ))}
      </ul>
      {archived ? (
        <p class="muted">Arquivado: o link de checkout não vende mais.</p>
      ) : (
        <p class="key">
          <a href={product.checkout_url}>{product.checkout_url}</a>
        </p>
      )}
      <p class="actions">
        {archived ? null : (
          <CopyButton text={product.checkout_url} label={`Copiar link de ${product.name}`} />
        )}
        <a class="btn" href={`/dashboard/produtos/${product.id}`}>
          {`Editar ${product.name}`}
        </a>
      </p>
    </li>
  )
}

/** The empty dashboard's first steps (issue 12 item 1): what to do to make the first sale. */
function FirstSteps(): VNode {
  return (
    <>
      <p>Você ainda não tem produtos. Para fazer a primeira venda:</p>
      <ol>
        <li>Crie um produto com um nome, um preço e as formas de pagamento.</li>
        <li>Copie o link de checkout e divulgue onde seus clientes estão.</li>
        <li>Quando quiser, crie cupons e convide afiliados e coprodutores.</li>
      </ol>
    </>
  )
}

export const productListPage: RouteModule = (app, deps) =>
  dashboardPage(app, deps, { path: '/produtos', section: '/produtos' }, async ({ accountId }) => {
    const products = await listProducts(deps.db, deps, accountId, { page: 1, limit: 100 })
    return {
      title: 'Produtos',
      body: (
        <Section id="t-produtos" title="Seus produtos">
          {products.data.length ? (
            <ul>
              {products.data.map((p) => (
                <ProductItem key={p.id} product={p} />
              ))}
            </ul>
          ) : (
            <FirstSteps />
          )}
          <p>
            <a class="btn" href="/dashboard/produtos/novo">
              Novo produto
            </a>
          </p>
        </Section>
      ),
    }
  })
