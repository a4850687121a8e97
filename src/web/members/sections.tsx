// The logged-in members area: the products the buyer can open, their purchases (with the refund
// request inside the guarantee period) and their subscriptions (with cancel). Typed by what the
// buyers service returns; the buttons' behaviour is in members/browser/main.ts.
import type { ComponentChildren, VNode } from 'preact'
import { formatBrl } from '../../kit/money.ts'
import type { MySubscription, Purchase } from '../../modules/buyers/service.ts'
import {
  formatDate,
  INTERVAL,
  ORDER_STATUS,
  PAYMENT_METHOD,
  SUBSCRIPTION_STATUS,
} from './labels.ts'

export const MEMBERS_CSS = `
.topo{display:flex;justify-content:space-between;align-items:center;gap:8px;flex-wrap:wrap}
.topo form{margin:0}section{margin:0 0 20px}h2{font-size:1.15rem;margin:1rem 0 .5rem}
.estado{display:inline-block;font-size:.85rem;padding:2px 8px;border-radius:999px;background:#eee;color:#1d1d1f}
.confirmar{margin:8px 0 0;padding:8px;border:1px solid #b00020;border-radius:8px}
.feito{color:#1b5e20;font-weight:600}textarea{min-height:70px}h3{font-size:1.05rem;margin:0 0 .5rem}
summary{cursor:pointer;color:#5b2bd6;padding:6px 0}`

/** A product the buyer has access to, with its way in. */
export interface ProductAccess {
  id: string
  name: string
  description: string | null
  deliveryUrl: string | null
  /** Who sells it, for products delivered outside the platform. */
  seller: { name: string; email: string } | null
}

export function MyProducts(props: { products: ProductAccess[] }): VNode {
  return (
    <section aria-labelledby="produtos">
      <h2 id="produtos">Meus produtos</h2>
      {props.products.length ? (
        props.products.map((p) => (
          <article key={p.id} class="card" aria-label={p.name}>
            <h3>{p.name}</h3>
            {p.description ? <p>{p.description}</p> : null}
            {p.deliveryUrl ? (
              <a class="btn" href={p.deliveryUrl} rel="noopener">
                Acessar conteúdo
              </a>
            ) : (
              <p class="muted">
                O acesso a este produto é enviado pelo produtor por e-mail. Não recebeu? Confira a
                caixa de spam ou fale com{' '}
                {p.seller ? (
                  <>
                    {p.seller.name}: <a href={`mailto:${p.seller.email}`}>{p.seller.email}</a>
                  </>
                ) : (
                  'o produtor'
                )}
                .
              </p>
            )}
          </article>
        ))
      ) : (
        <p class="card">Você ainda não tem produtos liberados.</p>
      )}
    </section>
  )
}

/** The second step of a buyer's form: the question, then confirm or go back (members script). */
function ConfirmStep(props: { yes: string; children: ComponentChildren }): VNode {
  return (
    <div class="confirmar" hidden>
      <p>{props.children}</p>
      <p class="actions">
        <button type="button" data-confirm>
          {props.yes}
        </button>
        <button type="button" class="sec" data-cancel>
          Voltar
        </button>
      </p>
    </div>
  )
}

function RefundArea(props: { purchase: Purchase }): VNode | null {
  const { purchase: p } = props
  if (p.refund?.status === 'pending') return <p class="feito">Reembolso solicitado</p>
  if (p.refund?.status === 'completed') return <p class="feito">Reembolso concluído</p>
  if (!p.canRefund || !p.refundableUntil) return null
  const id = p.order.id
  return (
    <details class="pedir">
      <summary>Pedir reembolso</summary>
      <form class="reembolso" data-order={id}>
        <p class="muted">
          Você pode pedir reembolso até {formatDate(p.refundableUntil)} (garantia). O acesso ao
          produto termina quando o reembolso for concluído.
        </p>
        <p>
          <label for={`motivo-${id}`}>Motivo do reembolso</label>
          <textarea id={`motivo-${id}`} name="reason" maxLength={500} required />
        </p>
        <button type="submit" class="sec">
          Continuar
        </button>
        <ConfirmStep yes="Sim, pedir reembolso">
          Confirma o pedido de reembolso de {formatBrl(p.order.amount_cents)}?
        </ConfirmStep>
        <p class="erro" role="alert" />
      </form>
    </details>
  )
}

export function MyPurchases(props: { purchases: Purchase[]; hasMore: boolean }): VNode {
  return (
    <section aria-labelledby="compras">
      <h2 id="compras">Minhas compras</h2>
      {props.purchases.length ? (
        <ul class="card">
          {props.purchases.map((p) => (
            <li key={p.order.id} aria-label={`Compra: ${p.productName}`}>
              <p>
                <strong>{p.productName}</strong>
              </p>
              <p>
                {formatBrl(p.order.amount_cents)} ·{' '}
                {PAYMENT_METHOD[p.order.payment_method] ?? p.order.payment_method} ·{' '}
                {formatDate(p.order.paid_at ?? p.order.created_at)}{' '}
                <span class="estado">{ORDER_STATUS[p.order.status]}</span>
              </p>
              <RefundArea purchase={p} />
            </li>
          ))}
        </ul>
      ) : (
        <p class="card">Nenhuma compra ainda.</p>
      )}
      {props.hasMore ? <p class="muted">Mostrando as compras mais recentes.</p> : null}
    </section>
  )
}

function renewal(s: MySubscription): string {
  const { sub } = s
  const [one, many] = INTERVAL[sub.interval]
  const every = sub.interval_count === 1 ? `por ${one}` : `a cada ${sub.interval_count} ${many}`
  const price = `${formatBrl(sub.amount_cents)} ${every}`
  if (sub.status === 'canceled') return price
  if (sub.cancel_at_period_end)
    return `${price} · cancelamento agendado: acesso até ${formatDate(sub.current_period_end)}`
  return `${price} · próxima cobrança em ${formatDate(sub.current_period_end)}`
}

export function MySubscriptions(props: { subscriptions: MySubscription[] }): VNode | null {
  if (!props.subscriptions.length) return null
  return (
    <section aria-labelledby="assinaturas">
      <h2 id="assinaturas">Minhas assinaturas</h2>
      <ul class="card">
        {props.subscriptions.map((s) => (
          <li key={s.sub.id} aria-label={`Assinatura: ${s.productName}`}>
            <p>
              <strong>{s.productName}</strong>{' '}
              <span class="estado">{SUBSCRIPTION_STATUS[s.sub.status]}</span>
            </p>
            <p class="resumo">{renewal(s)}</p>
            {s.sub.status !== 'canceled' && !s.sub.cancel_at_period_end ? (
              <form class="cancelar" data-subscription={s.sub.id}>
                <button type="submit" class="sec">
                  Cancelar assinatura
                </button>
                <ConfirmStep yes="Sim, cancelar">
                  Confirma o cancelamento? Você mantém o acesso até{' '}
                  {formatDate(s.sub.current_period_end)} e não será mais cobrado.
                </ConfirmStep>
                <p class="erro" role="alert" />
              </form>
            ) : null}
          </li>
        ))}
      </ul>
    </section>
  )
}
