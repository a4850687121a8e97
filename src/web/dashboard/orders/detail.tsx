// /dashboard/pedidos/:id: one order — buyer, amounts, method, installments, coupon, affiliate
// commission, its dates — its refunds with their status, and the refund form (a reason, then a
// confirmation naming the amount) while the order is paid and no refund is under way.
import { Fragment, type VNode } from 'preact'
import { z } from 'zod'
import { NotFound } from '../../../kit/errors.ts'
import { usersByIds } from '../../../modules/accounts/service.ts'
import { findProductById } from '../../../modules/catalog/service.ts'
import { getOrder } from '../../../modules/orders/service.ts'
import { listRefunds } from '../../../modules/refunds/service.ts'
import type { RouteModule } from '../../../routes.ts'
import { dashboardPage } from '../page.tsx'
import { ApiForm, brl, type Data, ListOr, Section, when } from '../ui.tsx'
import { ORDER_STATUS, PAYMENT_METHOD, REFUND_STATUS } from './labels.ts'

type Order = Data<typeof getOrder>
type Refunds = Data<typeof listRefunds>

function Facts(props: { rows: [string, string][] }): VNode {
  return (
    <dl>
      {props.rows.map(([term, value]) => (
        <Fragment key={term}>
          <dt>{term}</dt>
          <dd>{value}</dd>
        </Fragment>
      ))}
    </dl>
  )
}

function RefundForm({ order }: { order: Order }): VNode {
  return (
    <ApiForm
      url={`/api/v1/orders/${order.id}/refund`}
      confirm={`Reembolsar ${brl(order.amount)} a ${order.buyer_email}? O acesso ao produto é revogado quando o reembolso for concluído.`}
      done="Reembolso solicitado."
    >
      <p>
        <label for="motivo">Motivo do reembolso</label>
        <textarea id="motivo" name="reason" maxLength={500} rows={3} required />
      </p>
      <button type="submit" class="danger">{`Reembolsar ${brl(order.amount)}`}</button>
    </ApiForm>
  )
}

function RefundList({ refunds }: { refunds: Refunds }): VNode {
  const items = refunds.data.map((r) => (
    <li key={r.id}>
      <p>
        <strong>{brl(r.amount)}</strong>
        {` · reembolso ${REFUND_STATUS[r.status]} · pedido em ${when(r.created_at, true)}`}
      </p>
      <p class="muted">{`Motivo: ${r.reason}`}</p>
      {r.completed_at ? <p class="muted">{`Concluído em ${when(r.completed_at, true)}`}</p> : null}
      {r.failed_at ? (
        <p class="muted">{`Falhou em ${when(r.failed_at, true)}: ${r.failure_reason ?? ''}`}</p>
      ) : null}
    </li>
  ))
  return <ListOr items={items} empty="Nenhum reembolso pedido." />
}

const Id = z.uuid()

export const orderDetailPage: RouteModule = (app, deps) =>
  dashboardPage(
    app,
    deps,
    { path: '/pedidos/:id', section: '/pedidos' },
    async ({ accountId, params }) => {
      const id = Id.safeParse(params.id)
      const order = id.success
        ? await getOrder(deps.db, accountId, id.data).catch((error) => {
            if (error instanceof NotFound) return null
            throw error
          })
        : null
      if (!order)
        return {
          status: 404,
          title: 'Pedido não encontrado',
          body: (
            <div class="card">
              <p>
                Este pedido não existe nesta conta. <a href="/dashboard/pedidos">Ver os pedidos</a>
              </p>
            </div>
          ),
        }
      const [buyers, product, refunds] = await Promise.all([
        usersByIds(deps.db, [order.buyer_id]),
        findProductById(deps.db, order.product_id),
        listRefunds(deps.db, accountId, { order_id: order.id, page: 1, limit: 20 }),
      ])
      const buyer = buyers.get(order.buyer_id)
      const underWay = refunds.data.some((r) => r.status !== 'failed')
      const money: [string, string][] = [
        ['Valor', brl(order.amount)],
        ['Forma de pagamento', PAYMENT_METHOD[order.payment_method]!],
        ['Parcelas', order.installments > 1 ? `${order.installments}x` : 'à vista'],
        ['Juros do parcelamento', brl(order.interest)],
        ['Cupom', order.coupon_code ?? 'nenhum'],
        [
          'Comissão de afiliado',
          order.affiliate_commission === null ? 'sem afiliado' : brl(order.affiliate_commission),
        ],
      ]
      const dates: [string, string][] = [
        ['Criado em', when(order.created_at, true)],
        ['Pago em', when(order.paid_at, true)],
        ['Reembolsado em', when(order.refunded_at, true)],
      ]
      return {
        title: `Pedido de ${brl(order.amount)}`,
        body: (
          <>
            <Section id="t-resumo" title="Resumo">
              <p>
                <span class="badge">{ORDER_STATUS[order.status]}</span>
                {` ${product?.name ?? 'produto removido'}`}
              </p>
              <Facts rows={money} />
            </Section>
            <Section id="t-comprador" title="Comprador">
              <Facts
                rows={[
                  ['Nome', buyer?.name || '—'],
                  ['E-mail', order.buyer_email],
                ]}
              />
            </Section>
            <Section id="t-historico" title="Histórico">
              <Facts rows={dates} />
            </Section>
            <Section id="t-reembolso" title="Reembolso">
              <RefundList refunds={refunds} />
              {order.status === 'paid' && !underWay ? <RefundForm order={order} /> : null}
            </Section>
            <p>
              <a href="/dashboard/pedidos">Voltar aos pedidos</a>
            </p>
          </>
        ),
      }
    },
  )
