// /admin: the platform admin's back office (SPEC §12): PIX keys to verify and withdrawals to
// approve, reject or pay. Server-rendered; each button calls the admin API and reloads.
import { Forbidden, Unauthorized } from '../kit/errors.ts'
import { requireAdmin } from '../kit/http/auth.ts'
import { formatBrl } from '../kit/money.ts'
import { maskPixKey } from '../modules/payouts/pix-key.ts'
import { listPixKeys } from '../modules/payouts/pix-keys.ts'
import { payoutsRepo } from '../modules/payouts/repo.ts'
import type { RouteModule } from '../routes.ts'
import { html, page, raw, type Safe } from './html.ts'

const QUEUE_SIZE = 100
const ROLE = { creator: 'produtor', coproducer: 'coprodutor', affiliate: 'afiliado' }
const STATUS = { pending: 'pendente', approved: 'aprovado' }

const CSS = `
ul{list-style:none;margin:0;padding:0}li{padding:10px 0;border-bottom:1px solid #eee;
overflow-wrap:anywhere}li p{margin:0 0 6px}.actions{display:flex;flex-wrap:wrap;gap:6px;align-items:end}
button{font:inherit;padding:8px 12px;border-radius:8px;border:1px solid #5b2bd6;background:#5b2bd6;
color:#fff;cursor:pointer}button.sec{background:#fff;color:#5b2bd6}button:focus-visible,
input:focus-visible{outline:3px solid #1d1d1f;outline-offset:2px}input{font:inherit;padding:7px;
border:1px solid #888;border-radius:8px;width:100%}.actions span{flex:1 1 180px}label{font-size:.9rem}.key{word-break:break-all}
#aviso{color:#b00020;font-weight:600}`

// Every action: POST to data-url (with the reason field's value when it has one), then reload.
const CLIENT = `
const csrf = decodeURIComponent((document.cookie.match(/(?:^|; )csrf_token=([^;]+)/) || [])[1] || '')
const aviso = document.getElementById('aviso')
document.addEventListener('click', async (event) => {
  const button = event.target.closest('button[data-url]')
  if (!button) return
  aviso.textContent = ''
  const field = button.dataset.reason && document.getElementById(button.dataset.reason)
  const init = { method: 'POST', headers: { 'x-csrf-token': csrf } }
  if (field) {
    if (!field.value.trim()) { aviso.textContent = 'Escreva o motivo antes de recusar.'; field.focus(); return }
    init.headers['content-type'] = 'application/json'
    init.body = JSON.stringify({ [field.name]: field.value })
  }
  button.disabled = true
  const res = await fetch(button.dataset.url, init)
  if (res.ok) return location.reload()
  const body = await res.json().catch(() => ({}))
  aviso.textContent = body.error || 'Não foi possível concluir a ação.'
  button.disabled = false
})
const login = document.getElementById('entrar')
if (login) login.addEventListener('submit', async (event) => {
  event.preventDefault()
  const res = await fetch('/api/auth/login', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: login.email.value, password: login.senha.value }),
  })
  if (res.ok) return location.reload()
  aviso.textContent = 'E-mail ou senha incorretos.'
})`

function frame(body: Safe): string {
  return page(
    'Administração',
    html`<h1>Administração da Vitrine</h1><p id="aviso" role="alert" aria-live="assertive"></p>
${body}<script>${raw(CLIENT)}</script>`,
    CSS,
  )
}

const loginForm = html`<form id="entrar" class="card"><h2>Entrar</h2>
<p><label for="email">E-mail</label><input id="email" name="email" type="email" autocomplete="username" required></p>
<p><label for="senha">Senha</label><input id="senha" name="senha" type="password" autocomplete="current-password" required></p>
<button type="submit">Entrar</button></form>`

export const adminPages: RouteModule = (app, deps) => {
  app.get('/admin', { schema: { hide: true } }, async (request, reply) => {
    try {
      await requireAdmin(request)
    } catch (error) {
      if (error instanceof Unauthorized)
        return reply.code(401).type('text/html').send(frame(loginForm))
      if (error instanceof Forbidden) {
        const denied = html`<div class="card"><p>Esta área é só da administração da plataforma.</p></div>`
        return reply.code(403).type('text/html').send(frame(denied))
      }
      throw error
    }
    const keys = await listPixKeys(deps.db, { status: 'pending', page: 1, limit: QUEUE_SIZE })
    const withdrawals = await payoutsRepo.listOpen(deps.db, QUEUE_SIZE)
    const keyRows = keys.data.map(
      (k) => html`<li><p>${k.name} <span class="muted">${k.email}</span></p>
<p>${k.pix_key_type}: <strong class="key">${k.pix_key}</strong></p>
<div class="actions">
<button data-url="/api/admin/pix-keys/${k.user_id}/verify">Verificar</button>
<span><label for="motivo-${k.user_id}">Motivo da rejeição</label>
<input id="motivo-${k.user_id}" name="reason" maxlength="500"></span>
<button class="sec" data-url="/api/admin/pix-keys/${k.user_id}/reject" data-reason="motivo-${k.user_id}">Rejeitar</button>
</div></li>`,
    )
    const withdrawalRows = withdrawals.map((w) => {
      const base = `/api/admin/withdrawals/${w.id}`
      const step =
        w.status === 'pending'
          ? html`<button data-url="${base}/approve">Aprovar</button>`
          : html`<button data-url="${base}/pay">Pagar via Pix</button>`
      return html`<li><p>${w.name} <span class="muted">${w.email} · ${ROLE[w.role]}</span></p>
<p><strong>${formatBrl(w.amount_cents)}</strong> · ${STATUS[w.status as keyof typeof STATUS]} ·
<span class="muted">Pix ${maskPixKey(w.pix_key_type, w.pix_key)}</span></p>
<div class="actions">${step}
<span><label for="nota-${w.id}">Motivo da recusa</label>
<input id="nota-${w.id}" name="admin_note" maxlength="500"></span>
<button class="sec" data-url="${base}/reject" data-reason="nota-${w.id}">Recusar</button>
</div></li>`
    })
    const body = html`<section class="card" aria-labelledby="t-chaves"><h2 id="t-chaves">Chaves Pix para verificar</h2>
${keyRows.length ? html`<ul>${keyRows}</ul>` : html`<p>Nenhuma chave aguardando verificação.</p>`}</section>
<section class="card" aria-labelledby="t-saques"><h2 id="t-saques">Saques em aberto</h2>
${withdrawalRows.length ? html`<ul>${withdrawalRows}</ul>` : html`<p>Nenhum saque pendente ou aprovado.</p>`}</section>`
    return reply.type('text/html').send(frame(body))
  })
}
