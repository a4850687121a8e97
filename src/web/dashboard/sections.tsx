// The dashboard's sections, each rendered from what the API's own services return.

import { Fragment, type VNode } from 'preact'
import { formatBrlAmount as brl, MAX_AMOUNT_CENTS, toBrl } from '../../kit/money.ts'
import { SCOPES } from '../../modules/accounts/schema.ts'
import type { listApiKeys } from '../../modules/accounts/service.ts'
import type { listProducts } from '../../modules/catalog/service.ts'
import type { creatorBalance } from '../../modules/ledger/balances.ts'
import type { listOrders } from '../../modules/orders/service.ts'
import type { profileOf } from '../../modules/payouts/pix-keys.ts'
import type { listWithdrawals } from '../../modules/payouts/withdrawals.ts'
import type { listDeliveries, listEndpoints } from '../../modules/webhooks/service.ts'
import { CONTROLS_CSS } from '../login-forms.tsx'
import type { Children } from '../render.tsx'

type Data<F extends (...args: never[]) => unknown> = Awaited<ReturnType<F>>

const ORDER_STATUS: Record<string, string> = {
  pending: 'aguardando pagamento',
  paid: 'pago',
  failed: 'recusado',
  expired: 'expirado',
  refunded: 'reembolsado',
  chargeback: 'contestado',
}
const WITHDRAWAL_STATUS: Record<string, string> = {
  pending: 'pendente',
  approved: 'aprovado',
  paid: 'pago',
  rejected: 'recusado',
}
const PIX_STATUS: Record<string, string> = {
  none: 'nenhuma chave cadastrada',
  pending: 'aguardando verificação',
  verified: 'verificada',
  rejected: 'rejeitada',
}
const DELIVERY_STATUS: Record<string, string> = {
  pending: 'na fila',
  delivered: 'entregue',
  failed: 'falhou',
}
const PIX_TYPES = [
  ['cpf', 'CPF'],
  ['cnpj', 'CNPJ'],
  ['email', 'E-mail'],
  ['phone', 'Telefone'],
  ['random', 'Chave aleatória'],
] as const

const when = (at: string | Date) =>
  new Date(at).toLocaleString('pt-BR', { timeZone: 'America/Sao_Paulo', dateStyle: 'short' })

export const DASHBOARD_CSS = `${CONTROLS_CSS}dl{display:grid;grid-template-columns:1fr auto;gap:4px 12px;margin:0}
dd{margin:0;text-align:right;font-weight:600}form p{margin:0 0 8px}dl+form,ul+form{margin-top:12px}fieldset{border:1px solid #ddd;border-radius:8px;margin:0 0 8px}
.scope{display:flex;gap:8px;align-items:center}.scope input{width:auto}.key{word-break:break-all}
li li{border:0;padding:4px 0}`

export function Section(props: { id: string; title: string; children: Children }): VNode {
  return (
    <section class="card" aria-labelledby={props.id}>
      <h2 id={props.id}>{props.title}</h2>
      {props.children}
    </section>
  )
}

function ListOr(props: { items: VNode[]; empty: string }): VNode {
  return props.items.length ? <ul>{props.items}</ul> : <p>{props.empty}</p>
}

/** The seed's creator balance, and the withdrawal form (every check is the API's). */
export function Money(props: { balance: Data<typeof creatorBalance>; accountId: string }): VNode {
  const { balance } = props
  const rows: [string, number][] = [
    ['Disponível para saque', balance.available],
    ['Vendas pagas', balance.paid_total],
    ['Reembolsado', balance.refunded_total],
    ['Já sacado', balance.withdrawn_total],
    ['Devido a coprodutores', balance.coproducer_owed],
    ['Devido a afiliados', balance.affiliate_owed],
  ]
  return (
    <>
      <dl>
        {rows.map(([label, amount]) => (
          <Fragment key={label}>
            <dt>{label}</dt>
            <dd>{brl(amount)}</dd>
          </Fragment>
        ))}
      </dl>
      <form data-url="/api/withdrawals" class="actions">
        <input type="hidden" name="tenant_id" value={props.accountId} />
        <span>
          <label for="valor">Valor do saque (R$)</label>
          <input
            id="valor"
            name="amount"
            type="number"
            min="20"
            max={toBrl(MAX_AMOUNT_CENTS)}
            step="0.01"
            inputMode="decimal"
            required
          />
        </span>
        <button type="submit">Solicitar saque</button>
      </form>
    </>
  )
}

export function PixKey({ pix }: { pix: Data<typeof profileOf> }): VNode {
  return (
    <>
      <p>
        {pix.pix_key ? `${pix.pix_key} · ` : ''}
        {PIX_STATUS[pix.pix_status]}
        {pix.pix_rejection_reason ? `: ${pix.pix_rejection_reason}` : ''}
      </p>
      <form data-url="/api/profile/pix" data-method="PATCH">
        <p>
          <label for="tipo">Tipo de chave</label>
          <select id="tipo" name="pix_key_type">
            {PIX_TYPES.map(([value, label]) => (
              <option key={value} value={value} selected={pix.pix_key_type === value}>
                {label}
              </option>
            ))}
          </select>
        </p>
        <p>
          <label for="chave">Chave Pix</label>
          <input id="chave" name="pix_key" maxLength={140} required />
        </p>
        <button type="submit">Salvar chave</button>
      </form>
    </>
  )
}

export function Withdrawals({ page }: { page: Data<typeof listWithdrawals> }): VNode {
  const items = page.data.map((w) => (
    <li key={w.id}>
      <p>
        <strong>{brl(w.amount)}</strong>
        {` · ${WITHDRAWAL_STATUS[w.status]} · `}
        <span class="muted">{`${when(w.created_at)} · Pix ${w.pix_key}`}</span>
      </p>
      {w.admin_note ? <p class="muted">{w.admin_note}</p> : null}
    </li>
  ))
  return <ListOr items={items} empty="Nenhum saque ainda." />
}

export function Sales(props: {
  page: Data<typeof listOrders>
  productName: Map<string, string>
}): VNode {
  const items = props.page.data.map((o) => (
    <li key={o.id}>
      <p>
        <strong>{brl(o.amount)}</strong>
        {` · ${ORDER_STATUS[o.status]} · ${props.productName.get(o.product_id) ?? 'produto removido'}`}
      </p>
      <p class="muted">{`${o.buyer_email} · ${when(o.created_at)}`}</p>
    </li>
  ))
  return <ListOr items={items} empty="Nenhuma venda ainda." />
}

export function Products({ page }: { page: Data<typeof listProducts> }): VNode {
  const items = page.data.map((p) => (
    <li key={p.id}>
      <p>
        <strong>{p.name}</strong>
        {` · ${p.plans.map((plan) => `${plan.name} ${brl(plan.price)}`).join(' · ')}`}
      </p>
      <p>
        <a href={p.checkout_url}>{p.checkout_url}</a>
      </p>
    </li>
  ))
  return <ListOr items={items} empty="Nenhum produto ainda." />
}

export function Webhooks(props: {
  endpoints: Data<typeof listEndpoints>
  logs: Data<typeof listDeliveries>[]
}): VNode {
  const items = props.endpoints.data.map((e, i) => {
    const deliveries = props.logs[i]!.data.map((d) => {
      const last = d.attempts.at(-1)?.status_code
      return (
        <li key={d.id}>
          <p>
            {`${d.event} · ${DELIVERY_STATUS[d.status]} · `}
            <span class="muted">
              {`${d.attempts.length} tentativa(s)${last ? ` · HTTP ${last}` : ''}`}
            </span>
          </p>
        </li>
      )
    })
    return (
      <li key={e.id}>
        <p>
          <strong>{e.url}</strong>
          {e.is_active ? null : (
            <>
              {' · '}
              <span class="muted">desativado</span>
            </>
          )}
        </p>
        <ListOr items={deliveries} empty="Nenhuma entrega ainda." />
      </li>
    )
  })
  return <ListOr items={items} empty="Nenhum endpoint cadastrado." />
}

/** The keys (never their secrets), revoke buttons, and the form whose answer shows one once. */
export function ApiKeys(props: { keys: Data<typeof listApiKeys>; accountId: string }): VNode {
  const url = `/api/accounts/${props.accountId}/api-keys`
  const items = props.keys.map((k) => (
    <li key={k.id}>
      <p>
        <strong>{k.name}</strong> · <code>{`${k.prefix}…`}</code>
      </p>
      <p class="muted">
        {`${k.scopes.join(', ')} · ${k.last_used_at ? `usada em ${when(k.last_used_at)}` : 'nunca usada'}`}
      </p>
      <button type="button" class="sec" data-url={`${url}/${k.id}`} data-method="DELETE">
        {`Revogar ${k.name}`}
      </button>
    </li>
  ))
  return (
    <>
      <ListOr items={items} empty="Nenhuma chave de API." />
      <form data-url={url} data-reveal="chave-nova">
        <p>
          <label for="nome-chave">Nome da chave</label>
          <input id="nome-chave" name="name" maxLength={100} required />
        </p>
        <fieldset data-pick-one>
          <legend>Permissões</legend>
          {SCOPES.map((scope) => (
            <label key={scope} class="scope">
              <input type="checkbox" name="scopes" value={scope} /> {scope}
            </label>
          ))}
        </fieldset>
        <button type="submit">Criar chave</button>
      </form>
      <div id="chave-nova" role="status" hidden>
        <p>Copie agora: a chave não será mostrada de novo.</p>
        <p>
          <code class="key" />
        </p>
      </div>
    </>
  )
}
