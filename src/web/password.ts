// /members/senha: where an invited user (or a buyer) sets a password after arriving by link.
import { type AppError, Unauthorized } from '../kit/errors.ts'
import { PASSWORD_PAGE } from '../modules/accounts/password.ts'
import type { RouteModule } from '../routes.ts'
import { scriptFile } from './assets.ts'
import { html, page } from './html.ts'

const CLIENT = `
const form = document.getElementById('senha')
const erro = document.getElementById('erro')
form.addEventListener('submit', async (event) => {
  event.preventDefault()
  erro.textContent = ''
  const nova = document.getElementById('nova').value
  if (nova !== document.getElementById('repita').value) {
    erro.textContent = 'As senhas não são iguais.'
    return
  }
  const csrf = (document.cookie.match(/(?:^|; )csrf_token=([^;]+)/) || [])[1] || ''
  const res = await fetch('/api/auth/password', {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-csrf-token': decodeURIComponent(csrf) },
    body: JSON.stringify({ password: nova }),
  })
  if (res.ok) {
    form.hidden = true
    document.getElementById('feito').hidden = false
  } else {
    const body = await res.json().catch(() => ({}))
    erro.textContent = (body.details && body.details[0] && body.details[0].message) || body.error || 'Não foi possível salvar.'
  }
})`

const SCRIPT = scriptFile('password', CLIENT)

/** Without a session, the link that brought the user here is spent or expired. */
function expired(error: AppError) {
  if (!(error instanceof Unauthorized)) return undefined
  const body = html`<div class="card"><h1>Link expirado</h1>
        <p>Entre pelo link mais recente que enviamos ao seu e-mail.</p></div>`
  return { status: 401, html: page('Defina sua senha', body) }
}

export const passwordPages: RouteModule = (app) => {
  const config = { guard: 'session', deniedPage: expired } as const
  app.get(PASSWORD_PAGE, { schema: { hide: true }, config }, async (_request, reply) => {
    const body = html`<div class="card"><h1>Defina sua senha</h1>
<form id="senha">
  <p><label for="nova">Nova senha (pelo menos 8 caracteres)</label><br>
  <input id="nova" type="password" autocomplete="new-password" minlength="8" required></p>
  <p><label for="repita">Repita a senha</label><br>
  <input id="repita" type="password" autocomplete="new-password" minlength="8" required></p>
  <p id="erro" role="alert" style="color:#b00020"></p>
  <button class="btn" type="submit">Salvar senha</button>
</form>
<p id="feito" hidden>Senha definida. Agora você também entra com seu e-mail e esta senha.
<a href="/members">Ir para a área de membros</a></p></div>
${SCRIPT}`
    return reply.type('text/html').send(page('Defina sua senha', body))
  })
}
