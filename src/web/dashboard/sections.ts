// The dashboard's sections, each rendered from what the API's own services return.
import { formatBrlAmount as brl, MAX_AMOUNT_CENTS, toBrl } from '../../kit/money.ts'
import { SCOPES } from '../../modules/accounts/schema.ts'
import type { listApiKeys } from '../../modules/accounts/service.ts'
import type { listProducts } from '../../modules/catalog/service.ts'
import type { creatorBalance } from '../../modules/ledger/balances.ts'
import type { listOrders } from '../../modules/orders/service.ts'
import type { profileOf } from '../../modules/payouts/pix-keys.ts'
import type { listWithdrawals } from '../../modules/payouts/withdrawals.ts'
import type { listDeliveries, listEndpoints } from '../../modules/webhooks/service.ts'
import { html, raw, type Safe } from '../html.ts'

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

export const section = (id: string, title: string, body: Safe) =>
  html`<section class="card" aria-labelledby="${id}"><h2 id="${id}">${title}</h2>${body}</section>`

const listOr = (items: Safe[], empty: string) =>
  items.length ? html`<ul>${items}</ul>` : html`<p>${empty}</p>`

/** The seed's creator balance, and the withdrawal form (every check is the API's). */
export function money(balance: Data<typeof creatorBalance>, accountId: string) {
  return html`<dl>
<dt>Disponível para saque</dt><dd>${brl(balance.available)}</dd>
<dt>Vendas pagas</dt><dd>${brl(balance.paid_total)}</dd>
<dt>Reembolsado</dt><dd>${brl(balance.refunded_total)}</dd>
<dt>Já sacado</dt><dd>${brl(balance.withdrawn_total)}</dd>
<dt>Devido a coprodutores</dt><dd>${brl(balance.coproducer_owed)}</dd>
<dt>Devido a afiliados</dt><dd>${brl(balance.affiliate_owed)}</dd>
</dl>
<form data-url="/api/withdrawals" class="actions"><input type="hidden" name="tenant_id" value="${accountId}">
<span><label for="valor">Valor do saque (R$)</label>
<input id="valor" name="amount" type="number" min="20" max="${toBrl(MAX_AMOUNT_CENTS)}" step="0.01" inputmode="decimal" required></span>
<button type="submit">Solicitar saque</button></form>`
}

export function pixKey(pix: Data<typeof profileOf>) {
  return html`<p>${pix.pix_key ? html`${pix.pix_key} · ` : ''}${PIX_STATUS[pix.pix_status]}${
    pix.pix_rejection_reason ? html`: ${pix.pix_rejection_reason}` : ''
  }</p>
<form data-url="/api/profile/pix" data-method="PATCH">
<p><label for="tipo">Tipo de chave</label><select id="tipo" name="pix_key_type">${PIX_TYPES.map(
    ([value, label]) =>
      html`<option value="${value}"${pix.pix_key_type === value ? raw(' selected') : ''}>${label}</option>`,
  )}</select></p>
<p><label for="chave">Chave Pix</label><input id="chave" name="pix_key" maxlength="140" required></p>
<button type="submit">Salvar chave</button></form>`
}

export function withdrawals(page: Data<typeof listWithdrawals>) {
  const items = page.data.map(
    (w) => html`<li><p><strong>${brl(w.amount)}</strong> · ${WITHDRAWAL_STATUS[w.status]} ·
<span class="muted">${when(w.created_at)} · Pix ${w.pix_key}</span></p>
${w.admin_note ? html`<p class="muted">${w.admin_note}</p>` : ''}</li>`,
  )
  return listOr(items, 'Nenhum saque ainda.')
}

export function sales(page: Data<typeof listOrders>, productName: Map<string, string>) {
  const items = page.data.map(
    (o) => html`<li><p><strong>${brl(o.amount)}</strong> · ${ORDER_STATUS[o.status]} · ${
      productName.get(o.product_id) ?? 'produto removido'
    }</p>
<p class="muted">${o.buyer_email} · ${when(o.created_at)}</p></li>`,
  )
  return listOr(items, 'Nenhuma venda ainda.')
}

export function products(page: Data<typeof listProducts>) {
  const items = page.data.map(
    (p) => html`<li><p><strong>${p.name}</strong> · ${p.plans
      .map((plan) => `${plan.name} ${brl(plan.price)}`)
      .join(' · ')}</p>
<p><a href="${p.checkout_url}">${p.checkout_url}</a></p></li>`,
  )
  return listOr(items, 'Nenhum produto ainda.')
}

export function webhooks(
  endpoints: Data<typeof listEndpoints>,
  logs: Data<typeof listDeliveries>[],
) {
  const items = endpoints.data.map((e, i) => {
    const deliveries = logs[i]!.data.map((d) => {
      const last = d.attempts.at(-1)?.status_code
      return html`<li><p>${d.event} · ${DELIVERY_STATUS[d.status]} ·
<span class="muted">${d.attempts.length} tentativa(s)${last ? ` · HTTP ${last}` : ''}</span></p></li>`
    })
    return html`<li><p><strong>${e.url}</strong>${e.is_active ? '' : html` · <span class="muted">desativado</span>`}</p>
${listOr(deliveries, 'Nenhuma entrega ainda.')}</li>`
  })
  return listOr(items, 'Nenhum endpoint cadastrado.')
}

/** The keys (never their secrets), revoke buttons, and the form whose answer shows one once. */
export function apiKeys(keys: Data<typeof listApiKeys>, accountId: string) {
  const url = `/api/accounts/${accountId}/api-keys`
  const items = keys.map(
    (k) => html`<li><p><strong>${k.name}</strong> · <code>${k.prefix}…</code></p>
<p class="muted">${k.scopes.join(', ')} · ${k.last_used_at ? `usada em ${when(k.last_used_at)}` : 'nunca usada'}</p>
<button class="sec" data-url="${url}/${k.id}" data-method="DELETE">Revogar ${k.name}</button></li>`,
  )
  return html`${listOr(items, 'Nenhuma chave de API.')}
<form data-url="${url}" data-reveal="chave-nova">
<p><label for="nome-chave">Nome da chave</label><input id="nome-chave" name="name" maxlength="100" required></p>
<fieldset data-pick-one><legend>Permissões</legend>${SCOPES.map(
    (scope) =>
      html`<label class="scope"><input type="checkbox" name="scopes" value="${scope}"> ${scope}</label>`,
  )}</fieldset>
<button type="submit">Criar chave</button></form>
<div id="chave-nova" role="status" hidden><p>Copie agora: a chave não será mostrada de novo.</p>
<p><code class="key"></code></p></div>`
}
