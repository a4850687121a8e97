// The dashboard's script: forms and buttons write through the API with the session's CSRF
// token. Each form sends its fields as JSON (numbers for type=number, checked boxes as an
// array) to data-url with data-method; then the page is loaded again (balance, lists and
// statuses are the server's), or for a new API key the key itself is shown, once. A button with
// data-url (revoke) sends its method alone and its row goes.
import { alertLine, csrfToken, wireLoginForm } from '../../browser/session.ts'

wireLoginForm()

async function send(url: string, method: string, body?: unknown): Promise<unknown> {
  const aviso = alertLine()
  aviso.textContent = ''
  const headers: Record<string, string> = { 'x-csrf-token': csrfToken() }
  const init: RequestInit = { method, headers }
  if (body) {
    headers['content-type'] = 'application/json'
    init.body = JSON.stringify(body)
  }
  const res = await fetch(url, init)
  const answer = (res.status === 204 ? {} : await res.json().catch(() => ({}))) as {
    error?: string
    details?: unknown
  }
  // Business messages come in pt-BR; the protocol's English "Validation failed" does not.
  if (!res.ok)
    aviso.textContent =
      res.status === 400 && answer.details
        ? 'Confira os campos do formulário.'
        : answer.error || 'Não foi possível concluir a ação.'
  return res.ok ? answer : null
}

/** A form's named fields as the API takes them. */
function fieldsOf(form: HTMLFormElement): Record<string, unknown> {
  const body: Record<string, unknown> = {}
  for (const element of form.elements) {
    const field = element as HTMLInputElement
    if (!field.name) continue
    if (field.type === 'checkbox') {
      const list = (body[field.name] as string[] | undefined) ?? []
      if (field.checked) list.push(field.value)
      body[field.name] = list
    } else body[field.name] = field.type === 'number' ? Number(field.value) : field.value
  }
  return body
}

document.addEventListener('submit', async (event) => {
  const form = (event.target as Element).closest<HTMLFormElement>('form[data-url]')
  if (!form) return
  event.preventDefault()
  if (form.querySelector('fieldset[data-pick-one]') && !form.querySelector(':checked')) {
    alertLine().textContent = 'Escolha pelo menos uma permissão.'
    return
  }
  const button = form.querySelector('button') as HTMLButtonElement
  button.disabled = true
  const answer = await send(form.dataset.url ?? '', form.dataset.method || 'POST', fieldsOf(form))
  button.disabled = false
  if (!answer) return
  const reveal = form.dataset.reveal ? document.getElementById(form.dataset.reveal) : null
  if (!reveal) return location.reload()
  ;(reveal.querySelector('code') as HTMLElement).textContent = (answer as { key: string }).key
  reveal.hidden = false
})

document.addEventListener('click', async (event) => {
  const button = (event.target as Element).closest<HTMLButtonElement>('button[data-url]')
  if (!button) return
  button.disabled = true
  if (await send(button.dataset.url ?? '', button.dataset.method ?? 'POST')) {
    button.closest('li')?.remove()
    return
  }
  button.disabled = false
})
