// What logged-in pages' scripts share: the CSRF token their writes echo, where a form's error
// goes, the busy state of a button, the e-mail and password form (login-forms.tsx) and the
// "Sair" button (auth/logout.tsx), when the page shows them.

/** The csrf_token cookie, sent back as x-csrf-token by every write. */
export function csrfToken(): string {
  return decodeURIComponent(/(?:^|; )csrf_token=([^;]+)/.exec(document.cookie)?.[1] ?? '')
}

/** The page's alert line (#aviso). */
export function alertLine(): HTMLElement {
  return document.getElementById('aviso') as HTMLElement
}

/** Where a form's error is written: its own alert element, else the page's alert line. */
export function formAlert(form: HTMLElement): HTMLElement | null {
  return form.querySelector<HTMLElement>('[role="alert"]') ?? document.getElementById('aviso')
}

/** Shows `text` in the form's alert (empty clears it). */
export function showError(form: HTMLElement, text: string): void {
  const alert = formAlert(form)
  if (alert) alert.textContent = text
}

/**
 * Marks a button busy while its request runs (disabled, aria-busy, a label that says so);
 * returns the function that puts it back.
 */
export function busy(button: HTMLButtonElement | null, label: string): () => void {
  if (!button) return () => {}
  const before = button.textContent
  button.disabled = true
  button.setAttribute('aria-busy', 'true')
  button.textContent = label
  return () => {
    button.disabled = false
    button.removeAttribute('aria-busy')
    button.textContent = before
  }
}

/** The API's error body in words a person reads: the first field's message, else `error`. */
export async function errorText(res: Response, fallback: string): Promise<string> {
  const body = (await res.json().catch(() => ({}))) as {
    error?: string
    details?: { message?: string }[]
  }
  if (res.status === 429) return 'Muitas tentativas. Tente de novo em alguns minutos.'
  const detail = body.details?.[0]?.message
  if (detail) return detail
  if (!body.error || body.error === 'Validation failed') return fallback
  return body.error
}

const input = (form: HTMLFormElement, name: string) =>
  form.elements.namedItem(name) as HTMLInputElement

export const submitButton = (form: HTMLFormElement) =>
  form.querySelector<HTMLButtonElement>('button[type="submit"]')

/** A public JSON POST (no session needed): the answer, or null when the network failed. */
export const postJson = (path: string, body: unknown): Promise<Response | null> =>
  fetch(path, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  }).catch(() => null)

/**
 * Logs in through the API, then goes to the form's `data-next` (a path the server chose among
 * our own), or loads this page again: the session changes what the server renders.
 */
export function wireLoginForm(): void {
  const login = document.getElementById('entrar') as HTMLFormElement | null
  if (!login) return
  login.addEventListener('submit', async (event) => {
    event.preventDefault()
    showError(login, '')
    const done = busy(submitButton(login), 'Entrando…')
    const res = await postJson('/api/auth/login', {
      email: input(login, 'email').value,
      password: input(login, 'senha').value,
    })
    if (res?.ok) return location.assign(login.dataset.next || location.pathname + location.search)
    done()
    showError(
      login,
      !res
        ? 'Sem conexão. Tente de novo.'
        : res.status === 429
          ? 'Muitas tentativas. Tente de novo em alguns minutos.'
          : 'E-mail ou senha incorretos.',
    )
  })
}

/** Every "Sair" form (auth/logout.tsx): ends the session, then goes to its `data-next`. */
export function wireLogoutButton(): void {
  for (const form of document.querySelectorAll<HTMLFormElement>('form[data-logout]')) {
    if (form.dataset.wired) continue
    form.dataset.wired = '1'
    form.addEventListener('submit', async (event) => {
      event.preventDefault()
      const done = busy(submitButton(form), 'Saindo…')
      const res = await fetch('/api/auth/logout', {
        method: 'POST',
        headers: { 'x-csrf-token': csrfToken() },
      }).catch(() => null)
      // 401: the session had already ended; either way the person is out.
      if (res && (res.ok || res.status === 401)) return location.assign(form.dataset.next || '/')
      done()
      showError(form, 'Não foi possível sair. Tente de novo.')
    })
  }
}
