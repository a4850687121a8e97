// The PIX key queue (server-rendered rows): verify, or reject with a reason; a decided key
// leaves the queue, and #mensagem says what was done. Errors go beside the row's actions.
import { api, errorText } from './api.ts'
import { showRowError } from './dom.ts'

export function wirePixKeys(say: (message: string) => void): void {
  const list = document.getElementById('chaves')
  if (!list) return
  list.addEventListener('click', async (event) => {
    const button = (event.target as Element).closest<HTMLButtonElement>('button[data-url]')
    if (!button) return
    const row = button.closest('li')
    const error = row?.querySelector<HTMLElement>('.erro') ?? null
    showRowError(error, '')
    const { url, reason, missing, done } = button.dataset
    const field = reason ? (document.getElementById(reason) as HTMLInputElement | null) : null
    if (field && !field.value.trim()) {
      showRowError(error, missing ?? 'Escreva o motivo.')
      return field.focus()
    }
    button.disabled = true
    const answer = await api(
      'POST',
      url ?? '',
      field ? { [field.name]: field.value.trim() } : undefined,
    )
    button.disabled = false
    if (!answer.ok) return showRowError(error, errorText(answer))
    say(done ?? 'Feito.')
    row?.remove()
    if (!list.querySelector('li')) {
      const empty = document.createElement('p')
      empty.textContent = list.dataset.empty ?? ''
      list.replaceWith(empty)
    }
  })
}
