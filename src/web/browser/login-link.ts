// The members area's "Receber link de acesso" form (login-forms.tsx), when the page shows it.
import { busy, postJson, showError, submitButton } from './session.ts'

export function wireLoginLinkForm(): void {
  const form = document.getElementById('link') as HTMLFormElement | null
  if (!form) return
  const status = document.getElementById('link-status') as HTMLElement
  form.addEventListener('submit', async (event) => {
    event.preventDefault()
    status.textContent = ''
    showError(form, '')
    const done = busy(submitButton(form), 'Enviando…')
    const res = await postJson('/api/auth/login-link', {
      email: (form.elements.namedItem('email') as HTMLInputElement).value,
    })
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
