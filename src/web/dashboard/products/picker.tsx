// Coupons and partners are per product: a plain GET form picks which one (?produto=<id>), so the
// choice is a link that works before any script runs; a bad or foreign id falls back to the first.
import type { VNode } from 'preact'
import { z } from 'zod'
import type { Deps } from '../../../deps.ts'
import type { ProductOut } from '../../../modules/catalog/schema.ts'
import { listProducts } from '../../../modules/catalog/service.ts'
import type { DashboardCtx } from '../page.tsx'
import { PRODUCT_STATUS } from './labels.ts'

const Query = z.object({ produto: z.uuid() })

/** The account's products (newest first, at most 100) and the one the query names. */
export async function pickProduct(deps: Deps, ctx: DashboardCtx) {
  const products = (await listProducts(deps.db, deps, ctx.accountId, { page: 1, limit: 100 })).data
  const asked = Query.safeParse(ctx.query)
  const chosen = (asked.success && products.find((p) => p.id === asked.data.produto)) || products[0]
  return { products, chosen }
}

export function ProductPicker(props: {
  products: ProductOut[]
  chosen: ProductOut
  action: string
  /** The button's words: what the choice shows ("Ver cupons"). */
  show: string
}): VNode {
  return (
    <form method="get" action={props.action} class="actions card">
      <span>
        <label for="produto">Produto</label>
        <select id="produto" name="produto">
          {props.products.map((p) => (
            <option key={p.id} value={p.id} selected={p.id === props.chosen.id}>
              {p.status === 'active' ? p.name : `${p.name} (${PRODUCT_STATUS[p.status]})`}
            </option>
          ))}
        </select>
      </span>
      <button type="submit" class="sec">
        {props.show}
      </button>
    </form>
  )
}

/** What a per-product section shows while the account has no product yet. */
export function NoProductYet(props: { what: string }): VNode {
  return (
    <div class="card">
      <p>{`${props.what} são ligados a um produto, e você ainda não tem nenhum.`}</p>
      <p>
        <a class="btn" href="/dashboard/produtos/novo">
          Criar o primeiro produto
        </a>
      </p>
    </div>
  )
}
