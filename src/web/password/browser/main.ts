// /members/senha: checks the two passwords match, then saves through the API (with CSRF).
import { csrfToken } from '../../browser/session.ts'

const form = document.getElementById('senha') as HTMLFormElement
const erro = document.getElementById('erro') as HTMLElement
const fieldValue = (id: string) => (document.getElementById(id) as HTMLInputElement).value

form.addEventListener('submit', async (event) => {
  event.preventDefault()
  erro.textContent = ''
  const nova = fieldValue('nova')
  if (nova !== fieldValue('repita')) {
    erro.textContent = 'As senhas não são iguais.'
    return
  }
  const res = await fetch('/api/auth/password', {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-csrf-token': csrfToken() },
    body: JSON.stringify({ password: nova }),
  })
  if (res.ok) {
    form.hidden = true
    ;(document.getElementById('feito') as HTMLElement).hidden = false
    return
  }
  const body = (await res.json().catch(() => ({}))) as {
    error?: string
    details?: { message?: string }[]
  }
  erro.textContent = body.details?.[0]?.message || body.error || 'Não foi possível salvar.'
})
