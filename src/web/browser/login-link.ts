// The members area's "Receber link de acesso" form (login-forms.tsx), when the page shows it.
import { busy, showError } from './session.ts'

export function wireLoginLinkForm(): void {
  const form = document.getElementById('link') as HTMLFormElement | null
  if (!form) return
  const status = document.getElementById('link-status') as HTMLElement
  form.addEventListener('submit', async (event) => {
    event.preventDefault()
    status.textContent = ''
    showError(form, '')
    const done = busy(form.querySelector('button[type="submit"]'), 'Enviando…')
    const res = await fetch('/api/auth/login-link', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: (form.elements.namedItem('email') as HTMLInputElement).value }),
    }).catch(() => null)
    done()
    if (res?.status === 202) {
      status.textContent =
        'Pronto! Se este e-mail tiver uma conta, o link chega em instantes. Confira também a caixa de spam.'
    } else if (res?.status === 429) {
      const minutes = Math.ceil(Number(res.headers.get('retry-after') || 60) / 60)
      showError(
        form,
        `Você já pediu vários links. Tente de novo em ${minutes}${minutes === 1 ? ' minuto.' : ' minutos.'}`,
      )
    } else {
      showError(form, res ? 'Confira o e-mail digitado.' : 'Sem conexão. Tente de novo.')
    }
  })
}
