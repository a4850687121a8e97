// What logged-in pages' scripts share: the CSRF token their writes echo, the page's alert line,
// and the e-mail and password form (login-forms.tsx), when the page shows it.

/** The csrf_token cookie, sent back as x-csrf-token by every write. */
export function csrfToken(): string {
  return decodeURIComponent(/(?:^|; )csrf_token=([^;]+)/.exec(document.cookie)?.[1] ?? '')
}

/** The page's alert line (#aviso). */
export function alertLine(): HTMLElement {
  return document.getElementById('aviso') as HTMLElement
}

const input = (form: HTMLFormElement, name: string) =>
  form.elements.namedItem(name) as HTMLInputElement

/**
 * Logs in through the API. The session changes what the server renders, so the page is loaded
 * again: the one reload left, the page before log-in having nothing of what comes after.
 */
export function wireLoginForm(): void {
  const login = document.getElementById('entrar') as HTMLFormElement | null
  if (!login) return
  login.addEventListener('submit', async (event) => {
    event.preventDefault()
    const res = await fetch('/api/auth/login', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        email: input(login, 'email').value,
        password: input(login, 'senha').value,
      }),
    })
    if (res.ok) return location.reload()
    alertLine().textContent =
      res.status === 429
        ? 'Muitas tentativas. Tente de novo em alguns minutos.'
        : 'E-mail ou senha incorretos.'
  })
}
