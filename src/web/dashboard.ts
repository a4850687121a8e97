// /dashboard: the creator's page (SPEC §12), first version: balance, withdrawals and the PIX
// key (with their forms), recent sales, products with their checkout links, the webhook
// endpoints with their latest deliveries, and the API keys (create, shown once; revoke). Server-rendered from the same services as the API;
// each form writes through the API with the session's CSRF token and reloads.
import { NotFound, Unauthorized } from '../kit/errors.ts'
import { requireAccount } from '../kit/http/auth.ts'
import { formatBrl, toCents } from '../kit/money.ts'
import { SCOPES } from '../modules/accounts/schema.ts'
import { listApiKeys } from '../modules/accounts/service.ts'
import { listProducts } from '../modules/catalog/service.ts'
import { ledgerRepo } from '../modules/ledger/repo.ts'
import { listOrders } from '../modules/orders/service.ts'
import { pixFields } from '../modules/payouts/pix-keys.ts'
import { payoutsRepo } from '../modules/payouts/repo.ts'
import { listWithdrawals } from '../modules/payouts/withdrawals.ts'
import { listDeliveries, listEndpoints } from '../modules/webhooks/service.ts'
import type { RouteModule } from '../routes.ts'
import { html, page, raw, type Safe } from './html.ts'
import { CONTROLS_CSS, loginForm, SESSION_JS } from './session-ui.ts'

const RECENT = 10
const DELIVERIES_SHOWN = 5

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

const CSS = `${CONTROLS_CSS}dl{display:grid;grid-template-columns:1fr auto;gap:4px 12px;margin:0}
dd{margin:0;text-align:right;font-weight:600}form p{margin:0 0 8px}dl+form,ul+form{margin-top:12px}fieldset{border:1px solid #ddd;border-radius:8px;margin:0 0 8px}
.scope{display:flex;gap:8px;align-items:center}.scope input{width:auto}.key{word-break:break-all}
li li{border:0;padding:4px 0}`

// Each form: its fields as JSON (numbers for type=number, checked boxes as an array) to
// data-url with data-method; then a reload, or for a new API key the key itself, shown once.
// A button with data-url (revoke) sends its method alone.
const CLIENT = `${SESSION_JS}
async function send(url, method, body) {
  aviso.textContent = ''
  const init = { method, headers: { 'x-csrf-token': csrf } }
  if (body) {
    init.headers['content-type'] = 'application/json'
    init.body = JSON.stringify(body)
  }
  const res = await fetch(url, init)
  const answer = res.status === 204 ? {} : await res.json().catch(() => ({}))
  // Business messages come in pt-BR; the protocol's English "Validation failed" does not.
  if (!res.ok)
    aviso.textContent = res.status === 400 && answer.details ? 'Confira os campos do formulário.'
      : answer.error || 'Não foi possível concluir a ação.'
  return res.ok ? answer : null
}
document.addEventListener('submit', async (event) => {
  const form = event.target.closest('form[data-url]')
  if (!form) return
  event.preventDefault()
  if (form.querySelector('fieldset[data-pick-one]') && !form.querySelector(':checked')) {
    aviso.textContent = 'Escolha pelo menos uma permissão.'
    return
  }
  const body = {}
  for (const field of form.elements) {
    if (!field.name) continue
    if (field.type === 'checkbox') (body[field.name] ||= []).push(...(field.checked ? [field.value] : []))
    else body[field.name] = field.type === 'number' ? Number(field.value) : field.value
  }
  const button = form.querySelector('button')
  button.disabled = true
  const answer = await send(form.dataset.url, form.dataset.method || 'POST', body)
  button.disabled = false
  if (!answer) return
  const reveal = form.dataset.reveal && document.getElementById(form.dataset.reveal)
  if (!reveal) return location.reload()
  reveal.querySelector('code').textContent = answer.key
  reveal.hidden = false
})
document.addEventListener('click', async (event) => {
  const button = event.target.closest('button[data-url]')
  if (!button) return
  button.disabled = true
  if (await send(button.dataset.url, button.dataset.method)) return location.reload()
  button.disabled = false
})`

const when = (iso: string) =>
  new Date(iso).toLocaleString('pt-BR', { timeZone: 'America/Sao_Paulo', dateStyle: 'short' })
const brl = (amount: number) => formatBrl(toCents(amount))

function frame(body: Safe, status = 200): { status: number; html: string } {
  const content = html`<h1>Painel da Vitrine</h1><p id="aviso" role="alert" aria-live="assertive"></p>
${body}<script>${raw(CLIENT)}</script>`
  return { status, html: page('Painel', content, CSS) }
}

const section = (id: string, title: string, body: Safe) =>
  html`<section class="card" aria-labelledby="${id}"><h2 id="${id}">${title}</h2>${body}</section>`

const listOr = (items: Safe[], empty: string) =>
  items.length ? html`<ul>${items}</ul>` : html`<p>${empty}</p>`

export const dashboardPages: RouteModule = (app, deps) => {
  app.get('/dashboard', { schema: { hide: true } }, async (request, reply) => {
    let actor: Awaited<ReturnType<typeof requireAccount>>
    try {
      actor = await requireAccount(request, 'read:orders')
    } catch (error) {
      if (error instanceof Unauthorized) {
        const { status, html: out } = frame(loginForm, 401)
        return reply.code(status).type('text/html').send(out)
      }
      // Logged in but without an account of their own (a buyer, an affiliate).
      if (error instanceof NotFound) {
        const none = html`<div class="card"><p>Este login não tem uma conta de produtor. Compras ficam na <a href="/members">área de membros</a>.</p></div>`
        const { status, html: out } = frame(none, 403)
        return reply.code(status).type('text/html').send(out)
      }
      throw error
    }
    const { accountId, userId } = actor
    const recent = { page: 1, limit: RECENT }
    const [balance, pixKey, withdrawals, orders, products, endpoints, keys] = await Promise.all([
      ledgerRepo.creatorBalance(deps.db, accountId),
      payoutsRepo.findPixKey(deps.db, userId),
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
    const pix = pixFields(pixKey)
    const productName = new Map(products.data.map((p) => [p.id, p.name]))

    const money = html`<dl>
<dt>Disponível para saque</dt><dd>${formatBrl(balance?.available ?? 0)}</dd>
<dt>Vendas pagas</dt><dd>${formatBrl(balance?.paid_total ?? 0)}</dd>
<dt>Reembolsado</dt><dd>${formatBrl(balance?.refunded_total ?? 0)}</dd>
<dt>Já sacado</dt><dd>${formatBrl(balance?.withdrawn_total ?? 0)}</dd>
<dt>Devido a coprodutores</dt><dd>${formatBrl(balance?.coproducer_owed ?? 0)}</dd>
<dt>Devido a afiliados</dt><dd>${formatBrl(balance?.affiliate_owed ?? 0)}</dd>
</dl>
<form data-url="/api/withdrawals" class="actions"><input type="hidden" name="tenant_id" value="${accountId}">
<span><label for="valor">Valor do saque (R$)</label>
<input id="valor" name="amount" type="number" min="20" step="0.01" inputmode="decimal" required></span>
<button type="submit">Solicitar saque</button></form>`

    const withdrawalItems = withdrawals.data.map(
      (w) => html`<li><p><strong>${brl(w.amount)}</strong> · ${WITHDRAWAL_STATUS[w.status]} ·
<span class="muted">${when(w.created_at)} · Pix ${w.pix_key}</span></p>
${w.admin_note ? html`<p class="muted">${w.admin_note}</p>` : ''}</li>`,
    )

    const pixBody = html`<p>${pix.pix_key ? html`${pix.pix_key} · ` : ''}${PIX_STATUS[pix.pix_status]}${
      pix.pix_rejection_reason ? html`: ${pix.pix_rejection_reason}` : ''
    }</p>
<form data-url="/api/profile/pix" data-method="PATCH">
<p><label for="tipo">Tipo de chave</label><select id="tipo" name="pix_key_type">${PIX_TYPES.map(
      ([value, label]) =>
        html`<option value="${value}"${pix.pix_key_type === value ? raw(' selected') : ''}>${label}</option>`,
    )}</select></p>
<p><label for="chave">Chave Pix</label><input id="chave" name="pix_key" maxlength="140" required></p>
<button type="submit">Salvar chave</button></form>`

    const orderItems = orders.data.map(
      (o) => html`<li><p><strong>${brl(o.amount)}</strong> · ${ORDER_STATUS[o.status]} · ${
        productName.get(o.product_id) ?? 'produto removido'
      }</p>
<p class="muted">${o.buyer_email} · ${when(o.created_at)}</p></li>`,
    )

    const productItems = products.data.map(
      (p) => html`<li><p><strong>${p.name}</strong> · ${p.plans
        .map((plan) => `${plan.name} ${brl(plan.price)}`)
        .join(' · ')}</p>
<p><a href="${p.checkout_url}">${p.checkout_url}</a></p></li>`,
    )

    const endpointItems = endpoints.data.map((e, i) => {
      const deliveries = logs[i]!.data.map(
        (d) => html`<li><p>${d.event} · ${DELIVERY_STATUS[d.status]} ·
<span class="muted">${d.attempts.length} tentativa(s)${
          d.attempts.at(-1)?.status_code ? html` · HTTP ${d.attempts.at(-1)!.status_code}` : ''
        }</span></p></li>`,
      )
      return html`<li><p><strong>${e.url}</strong>${e.is_active ? '' : html` · <span class="muted">desativado</span>`}</p>
${listOr(deliveries, 'Nenhuma entrega ainda.')}</li>`
    })

    const keysUrl = `/api/accounts/${accountId}/api-keys`
    const keyItems = keys.map(
      (k) => html`<li><p><strong>${k.name}</strong> · <code>${k.prefix}…</code></p>
<p class="muted">${k.scopes.join(', ')} · ${k.last_used_at ? `usada em ${when(k.last_used_at.toISOString())}` : 'nunca usada'}</p>
<button class="sec" data-url="${keysUrl}/${k.id}" data-method="DELETE">Revogar ${k.name}</button></li>`,
    )
    const apiKeys = html`${listOr(keyItems, 'Nenhuma chave de API.')}
<form data-url="${keysUrl}" data-reveal="chave-nova">
<p><label for="nome-chave">Nome da chave</label><input id="nome-chave" name="name" maxlength="100" required></p>
<fieldset data-pick-one><legend>Permissões</legend>${SCOPES.map(
      (scope) =>
        html`<label class="scope"><input type="checkbox" name="scopes" value="${scope}"> ${scope}</label>`,
    )}</fieldset>
<button type="submit">Criar chave</button></form>
<div id="chave-nova" role="status" hidden><p>Copie agora: a chave não será mostrada de novo.</p>
<p><code class="key"></code></p></div>`

    const body = html`${section('t-saldo', 'Saldo', money)}
${section('t-pix', 'Chave Pix', pixBody)}
${section('t-saques', 'Saques', listOr(withdrawalItems, 'Nenhum saque ainda.'))}
${section('t-vendas', 'Vendas recentes', listOr(orderItems, 'Nenhuma venda ainda.'))}
${section('t-produtos', 'Produtos', listOr(productItems, 'Nenhum produto ainda.'))}
${section('t-webhooks', 'Webhooks', listOr(endpointItems, 'Nenhum endpoint cadastrado.'))}
${section('t-chaves', 'Chaves de API', apiKeys)}`
    const { status, html: out } = frame(body)
    return reply.code(status).type('text/html').send(out)
  })
}
