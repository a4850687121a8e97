// A list of orders as cards (the overview's latest sales, the orders page): amount, status,
// product, buyer and date, each opening the order.
import type { VNode } from 'preact'
import type { listOrders } from '../../../modules/orders/service.ts'
import { brl, type Data, ListOr, when } from '../ui.tsx'
import { ORDER_STATUS, PAYMENT_METHOD } from './labels.ts'

export function Sales(props: {
  page: Data<typeof listOrders>
  productName: Map<string, string>
  empty?: string
  /** Adds the method and a link to each order's page. */
  detailed?: boolean
}): VNode {
  const items = props.page.data.map((o) => (
    <li key={o.id}>
      <p>
        <strong>{brl(o.amount)}</strong>
        {` · ${ORDER_STATUS[o.status]} · ${props.productName.get(o.product_id) ?? 'produto removido'}`}
      </p>
      <p class="muted">
        {`${o.buyer_email} · ${when(o.created_at, props.detailed)}`}
        {props.detailed ? ` · ${PAYMENT_METHOD[o.payment_method]}` : ''}
      </p>
      {props.detailed ? (
        <p>
          <a href={`/dashboard/pedidos/${o.id}`}>{`Ver pedido de ${o.buyer_email}`}</a>
        </p>
      ) : null}
    </li>
  ))
  return <ListOr items={items} empty={props.empty ?? 'Nenhuma venda ainda.'} />
}
