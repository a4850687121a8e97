// /admin: the platform admin's back office (SPEC §12): PIX keys to verify and withdrawals to
// approve, reject or pay. Server-rendered; each button calls the admin API and reloads.
import { type AppError, Forbidden, Unauthorized } from '../kit/errors.ts'
import { formatBrl } from '../kit/money.ts'
import { maskPixKey } from '../modules/payouts/pix-key.ts'
import { listPixKeys } from '../modules/payouts/pix-keys.ts'
import { openWithdrawals } from '../modules/payouts/withdrawals.ts'
import type { RouteModule } from '../routes.ts'
import { scriptFile } from './assets.ts'
import { html, page, type Safe } from './html.ts'
import { CONTROLS_CSS, loginForm, SESSION_JS } from './session-ui.ts'

const QUEUE_SIZE = 100
const ROLE = { creator: 'produtor', coproducer: 'coprodutor', affiliate: 'afiliado' }
const STATUS: Record<string, string> = { pending: 'pendente', approved: 'aprovado' }

/** PAYOUT_PROVIDER=manual: the admin sends the PIX by hand, then records its end-to-end id. */
const manualPayment = (base: string, id: string) =>
  html`<span><label for="e2e-${id}">End-to-end id do Pix enviado</label>
<input id="e2e-${id}" name="end_to_end_id" maxlength="32" autocomplete="off" spellcheck="false"></span>
<button data-url="${base}/pay" data-reason="e2e-${id}" data-missing="Informe o end-to-end id do Pix enviado.">Marcar como pago</button>`

const CSS = `${CONTROLS_CSS}.key{word-break:break-all}`

// Every action: POST to data-url (with its field's value when it has one), then reload.
const CLIENT = `${SESSION_JS}
document.addEventListener('click', async (event) => {
  const button = event.target.closest('button[data-url]')
  if (!button) return
  aviso.textContent = ''
  const field = button.dataset.reason && document.getElementById(button.dataset.reason)
  const init = { method: 'POST', headers: { 'x-csrf-token': csrf } }
  if (field) {
    if (!field.value.trim()) { aviso.textContent = button.dataset.missing || 'Escreva o motivo antes de recusar.'; field.focus(); return }
    init.headers['content-type'] = 'application/json'
    init.body = JSON.stringify({ [field.name]: field.value })
  }
  button.disabled = true
  const res = await fetch(button.dataset.url, init)
  if (res.ok) return location.reload()
  const body = await res.json().catch(() => ({}))
  aviso.textContent = body.error || 'Não foi possível concluir a ação.'
  button.disabled = false
})`
const SCRIPT = scriptFile('admin', CLIENT)

function frame(body: Safe): string {
  return page(
    'Administração',
    html`<h1>Administração da Vitrine</h1><p id="aviso" role="alert" aria-live="assertive"></p>
${body}${SCRIPT}`,
    CSS,
  )
}

/** Anyone without an admin session sees the log-in form; a logged-in non-admin, a refusal. */
function refusal(error: AppError) {
  if (error instanceof Unauthorized) return { status: 401, html: frame(loginForm) }
  if (error instanceof Forbidden) {
    const denied = html`<div class="card"><p>Esta área é só da administração da plataforma.</p></div>`
    return { status: 403, html: frame(denied) }
  }
  return undefined
}

export const adminPages: RouteModule = (app, deps) => {
  const config = { guard: 'admin', deniedPage: refusal } as const
  app.get('/admin', { schema: { hide: true }, config }, async (_request, reply) => {
    const keys = await listPixKeys(deps.db, { status: 'pending', page: 1, limit: QUEUE_SIZE })
    const withdrawals = await openWithdrawals(deps.db, QUEUE_SIZE)
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
      const inProgress = w.status === 'approved' && w.transfer_started_at !== null
      const step =
        w.status === 'pending'
          ? html`<button data-url="${base}/approve">Aprovar</button>`
          : deps.payouts.automatic
            ? html`<button data-url="${base}/pay">${inProgress ? 'Consultar transferência' : 'Pagar via Pix'}</button>`
            : manualPayment(base, w.id)
      // Manual payouts show the key in full: the admin types it into the bank's app.
      const key = deps.payouts.automatic ? maskPixKey(w.pix_key_type, w.pix_key) : w.pix_key
      const status = inProgress ? 'transferência Pix em andamento' : STATUS[w.status]
      return html`<li><p>${w.name} <span class="muted">${w.email} · ${ROLE[w.role]}</span></p>
<p><strong>${formatBrl(w.amount_cents)}</strong> · ${status} ·
<span class="muted">Pix ${w.pix_key_type}: <span class="key">${key}</span></span></p>
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
