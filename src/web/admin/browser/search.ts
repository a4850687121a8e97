// Search: accounts (GET /api/admin/accounts?q=) and orders (GET /api/admin/orders?q=), each
// form drawing its results under it, or saying that nothing was found.
import type { OrderStatus } from '../../../kit/db-schema.ts'
import { ORDER_STATUS_PT, PAYMENT_METHOD_PT } from '../../../modules/orders/words.ts'
import { api, errorText } from './api.ts'
import { brl, dateTime, h } from './dom.ts'

interface Account {
  id: string
  name: string
  created_at: string
  owner: { name: string; email: string } | null
}
interface Order {
  id: string
  status: string
  amount: number
  payment_method: string
  buyer_name: string
  buyer_email: string
  product_name: string
  account_name: string
  created_at: string
}

function wire<T>(formId: string, listId: string, url: string, draw: (item: T) => HTMLLIElement) {
  const form = document.getElementById(formId) as HTMLFormElement | null
  const list = document.getElementById(listId) as HTMLUListElement | null
  if (!form || !list) return
  form.addEventListener('submit', async (event) => {
    event.preventDefault()
    const q = (form.elements.namedItem('q') as HTMLInputElement).value.trim()
    if (!q) return
    const answer = await api<{ data: T[] }>('GET', `${url}?q=${encodeURIComponent(q)}&limit=20`)
    if (!answer.ok) return list.replaceChildren(h('li', { class: 'erro' }, errorText(answer)))
    list.replaceChildren(
      ...(answer.body.data.length ? answer.body.data.map(draw) : [h('li', {}, 'Nada encontrado.')]),
    )
  })
}

export function wireSearch(): void {
  wire<Account>('busca-contas', 'contas', '/api/admin/accounts', (a) =>
    h(
      'li',
      {},
      h('p', {}, h('strong', {}, a.name), ' ', h('span', { class: 'muted' }, `id ${a.id}`)),
      h(
        'p',
        { class: 'muted' },
        a.owner ? `Dono: ${a.owner.name} · ${a.owner.email}` : 'Sem dono',
        ` · criada em ${dateTime(a.created_at)}`,
      ),
    ),
  )
  wire<Order>('busca-pedidos', 'pedidos', '/api/admin/orders', (o) =>
    h(
      'li',
      {},
      h(
        'p',
        {},
        h('strong', {}, brl(o.amount)),
        ` · ${ORDER_STATUS_PT[o.status as OrderStatus] ?? o.status} · ${PAYMENT_METHOD_PT[o.payment_method] ?? o.payment_method}`,
      ),
      h(
        'p',
        {},
        `${o.product_name} `,
        h('span', { class: 'muted' }, `vendido por ${o.account_name}`),
      ),
      h('p', { class: 'muted' }, `${o.buyer_name} · ${o.buyer_email} · ${dateTime(o.created_at)}`),
      h('p', { class: 'muted' }, `Pedido ${o.id}`),
    ),
  )
}
