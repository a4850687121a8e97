// /admin: every action button POSTs to its data-url (with its field's value when it has one).
// An action that takes the row out of its queue (verify or reject a key, refuse a withdrawal,
// a payout the answer says is paid) removes the row; one that moves it to its next step
// (approve, a transfer still in progress) loads the page again, the step being the server's.
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
  const answer = (await res.json().catch(() => ({}))) as {
    error?: string
    data?: { status?: string }
  }
  if (!res.ok) {
    aviso.textContent = answer.error || 'Não foi possível concluir a ação.'
    button.disabled = false
    return
  }
  const done = button.dataset.then === 'remove' || answer.data?.status === 'paid'
  if (done) removeRow(button)
  else location.reload()
})

/** Takes the button's row out of its list; an emptied list says so, as the server would. */
function removeRow(button: HTMLButtonElement): void {
  const row = button.closest('li')
  const list = row?.parentElement
  row?.remove()
  if (list && !list.querySelector('li')) {
    const empty = document.createElement('p')
    empty.textContent = list.dataset.empty ?? ''
    list.replaceWith(empty)
  }
}
