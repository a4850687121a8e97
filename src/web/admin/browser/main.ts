// /admin: every action button POSTs to its data-url (with its field's value when it has one),
// then the page is loaded again, the queues being rendered by the server.
import { alertLine, csrfToken, wireLoginForm } from '../../browser/session.ts'

wireLoginForm()

document.addEventListener('click', async (event) => {
  const button = (event.target as Element).closest<HTMLButtonElement>('button[data-url]')
  if (!button) return
  const aviso = alertLine()
  aviso.textContent = ''
  const { url, reason, missing } = button.dataset
  const field = reason ? (document.getElementById(reason) as HTMLInputElement | null) : null
  const headers: Record<string, string> = { 'x-csrf-token': csrfToken() }
  let body: string | undefined
  if (field) {
    if (!field.value.trim()) {
      aviso.textContent = missing || 'Escreva o motivo antes de recusar.'
      field.focus()
      return
    }
    headers['content-type'] = 'application/json'
    body = JSON.stringify({ [field.name]: field.value })
  }
  button.disabled = true
  const res = await fetch(url ?? '', { method: 'POST', headers, body })
  if (res.ok) return location.reload()
  const answer = (await res.json().catch(() => ({}))) as { error?: string }
  aviso.textContent = answer.error || 'Não foi possível concluir a ação.'
  button.disabled = false
})
