// The dashboard's styles and its one script: forms and buttons write through the API with the
// session's CSRF token, then reload (a new API key is shown in the page instead, once).
import { scriptFile } from '../assets.ts'
import { CONTROLS_CSS, SESSION_JS } from '../session-ui.ts'

export const DASHBOARD_CSS = `${CONTROLS_CSS}dl{display:grid;grid-template-columns:1fr auto;gap:4px 12px;margin:0}
dd{margin:0;text-align:right;font-weight:600}form p{margin:0 0 8px}dl+form,ul+form{margin-top:12px}fieldset{border:1px solid #ddd;border-radius:8px;margin:0 0 8px}
.scope{display:flex;gap:8px;align-items:center}.scope input{width:auto}.key{word-break:break-all}
li li{border:0;padding:4px 0}`

// Each form: its fields as JSON (numbers for type=number, checked boxes as an array) to
// data-url with data-method; then a reload, or for a new API key the key itself, shown once.
// A button with data-url (revoke) sends its method alone.
const DASHBOARD_JS = `${SESSION_JS}
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

export const DASHBOARD_SCRIPT = scriptFile('dashboard', DASHBOARD_JS)
