// What the logged-in pages (/admin, /dashboard) share: the e-mail and password form, the script
// that logs in through the API and reloads, and the CSRF token the page's writes must echo.
import { html } from './html.ts'

export const loginForm = html`<form id="entrar" class="card"><h2>Entrar</h2>
<p><label for="email">E-mail</label><input id="email" name="email" type="email" autocomplete="username" required></p>
<p><label for="senha">Senha</label><input id="senha" name="senha" type="password" autocomplete="current-password" required></p>
<button type="submit">Entrar</button></form>`

/** Lists, buttons, fields and the alert line, mobile-first. */
export const CONTROLS_CSS = `
ul{list-style:none;margin:0;padding:0}li{padding:10px 0;border-bottom:1px solid #eee;
overflow-wrap:anywhere}li p{margin:0 0 6px}.actions{display:flex;flex-wrap:wrap;gap:6px;align-items:end}
button{font:inherit;padding:8px 12px;border-radius:8px;border:1px solid #5b2bd6;background:#5b2bd6;
color:#fff;cursor:pointer}button.sec{background:#fff;color:#5b2bd6}button:focus-visible,
input:focus-visible,select:focus-visible{outline:3px solid #1d1d1f;outline-offset:2px}
input,select{font:inherit;padding:7px;border:1px solid #888;border-radius:8px;width:100%}
.actions span{flex:1 1 180px}label{font-size:.9rem}#aviso{color:#b00020;font-weight:600}`

/** Defines `csrf` and `aviso` (the page's alert line) and wires the log-in form, if shown. */
export const SESSION_JS = `
const csrf = decodeURIComponent((document.cookie.match(/(?:^|; )csrf_token=([^;]+)/) || [])[1] || '')
const aviso = document.getElementById('aviso')
const login = document.getElementById('entrar')
if (login) login.addEventListener('submit', async (event) => {
  event.preventDefault()
  const res = await fetch('/api/auth/login', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: login.email.value, password: login.senha.value }),
  })
  if (res.ok) return location.reload()
  aviso.textContent = res.status === 429
    ? 'Muitas tentativas. Tente de novo em alguns minutos.'
    : 'E-mail ou senha incorretos.'
})`
