// The members area's way in without a password: a form that asks for a fresh one-time log-in
// link by e-mail (POST /api/auth/login-link). The answer is the same whether or not the e-mail
// has an account, so the page says "if".
import { html } from './html.ts'

export const loginLinkForm = html`<form id="link" class="card"><h2>Receber link de acesso</h2>
<p>Digite o e-mail que você usou na compra e enviamos um link para você entrar.</p>
<p><label for="link-email">E-mail</label><input id="link-email" name="email" type="email" autocomplete="email" required></p>
<button type="submit">Receber link de acesso</button>
<p id="link-status" role="status"></p></form>`

export const LOGIN_LINK_JS = `
const linkForm = document.getElementById('link')
linkForm.addEventListener('submit', async (event) => {
  event.preventDefault()
  const linkStatus = document.getElementById('link-status')
  linkStatus.textContent = ''
  const res = await fetch('/api/auth/login-link', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: linkForm.email.value }),
  })
  if (res.status === 202) {
    linkStatus.textContent = 'Pronto! Se este e-mail tiver uma conta, o link chega em instantes. Confira também a caixa de spam.'
  } else if (res.status === 429) {
    const minutes = Math.ceil(Number(res.headers.get('retry-after') || 60) / 60)
    linkStatus.textContent = 'Você já pediu vários links. Tente de novo em ' + minutes + (minutes === 1 ? ' minuto.' : ' minutos.')
  } else {
    linkStatus.textContent = 'Confira o e-mail digitado.'
  }
})`
