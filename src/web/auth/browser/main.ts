// /cadastro, /entrar and /senha/esqueci: whichever form the page shows.
import {
  busy,
  errorText,
  postJson,
  showError,
  submitButton,
  wireLoginForm,
} from '../../browser/session.ts'

const value = (form: HTMLFormElement, name: string) =>
  (form.elements.namedItem(name) as HTMLInputElement).value

/** Sign-up: creates the account and its session, then the dashboard. */
function wireSignup(): void {
  const form = document.getElementById('cadastro') as HTMLFormElement | null
  if (!form) return
  form.addEventListener('submit', async (event) => {
    event.preventDefault()
    showError(form, '')
    const done = busy(submitButton(form), 'Criando conta…')
    const res = await postJson('/api/auth/signup', {
      name: value(form, 'name'),
      email: value(form, 'email'),
      password: value(form, 'password'),
    })
    if (res?.status === 201) return location.assign('/dashboard')
    done()
    if (!res) return showError(form, 'Sem conexão. Tente de novo.')
    if (res.status === 409) {
      // The e-mail has an account: say so beside the form, with the way to log in.
      const alert = form.querySelector('[role="alert"]') as HTMLElement
      alert.textContent = 'Este e-mail já tem uma conta. '
      const link = document.createElement('a')
      link.href = '/entrar'
      link.textContent = 'Entrar com este e-mail'
      alert.append(link)
      return
    }
    showError(form, await errorText(res, 'Confira os campos do formulário.'))
  })
}

/** "Esqueci minha senha": the same answer whether or not the e-mail has an account. */
function wireForgot(): void {
  const form = document.getElementById('esqueci') as HTMLFormElement | null
  if (!form) return
  const status = document.getElementById('esqueci-status') as HTMLElement
  form.addEventListener('submit', async (event) => {
    event.preventDefault()
    showError(form, '')
    status.textContent = ''
    const done = busy(submitButton(form), 'Enviando…')
    const res = await postJson('/api/auth/password-reset', { email: value(form, 'email') })
    done()
    if (res?.status === 202) {
      status.textContent =
        'Pronto! Se este e-mail tiver uma conta, o link para criar uma nova senha chega em instantes. Confira também a caixa de spam.'
      return
    }
    if (!res) return showError(form, 'Sem conexão. Tente de novo.')
    showError(form, await errorText(res, 'Confira o e-mail digitado.'))
  })
}

wireSignup()
wireLoginForm()
wireForgot()
