// The set-password form (web/password.tsx): checks the two passwords match, then saves through
// the API — the session's own password (with CSRF), or the reset link's token.
import { busy, csrfToken, errorText, showError } from '../../browser/session.ts'

const form = document.getElementById('senha') as HTMLFormElement
const fieldValue = (id: string) => (document.getElementById(id) as HTMLInputElement | null)?.value

form.addEventListener('submit', async (event) => {
  event.preventDefault()
  showError(form, '')
  const nova = fieldValue('nova') ?? ''
  if (nova !== fieldValue('repita')) {
    showError(form, 'As senhas não são iguais.')
    return
  }
  const token = (form.elements.namedItem('token') as HTMLInputElement | null)?.value
  const current = fieldValue('atual')
  const done = busy(form.querySelector('button[type="submit"]'), 'Salvando…')
  const res = await fetch(token ? '/api/auth/password-reset/complete' : '/api/auth/password', {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-csrf-token': csrfToken() },
    body: JSON.stringify(
      token
        ? { token, password: nova }
        : { password: nova, ...(current === undefined ? {} : { current_password: current }) },
    ),
  }).catch(() => null)
  done()
  if (res?.ok) {
    form.hidden = true
    ;(document.getElementById('feito') as HTMLElement).hidden = false
    return
  }
  showError(
    form,
    res ? await errorText(res, 'Não foi possível salvar.') : 'Sem conexão. Tente de novo.',
  )
})
