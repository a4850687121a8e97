// The members area. Logged out: ask for a new link, or log in with a password. Logged in: a
// refund request and a subscription cancel, each confirmed in the page before it is sent.
import { wireLoginLinkForm } from '../../browser/login-link.ts'
import { busy, csrfToken, errorText, showError, wireLoginForm } from '../../browser/session.ts'

const DATE = new Intl.DateTimeFormat('pt-BR', {
  timeZone: 'America/Sao_Paulo',
  day: '2-digit',
  month: '2-digit',
  year: 'numeric',
})

/** Replaces a form (and the disclosure around it, if any) by a line that says what happened. */
function replaceBy(form: HTMLFormElement, text: string): void {
  const done = document.createElement('p')
  done.className = 'feito'
  done.setAttribute('role', 'status')
  done.textContent = text
  ;(form.closest('details') ?? form).replaceWith(done)
}

/**
 * A form whose submit first shows its confirmation box; "Sim" sends `send()`, "Voltar" closes
 * the box. `send` answers the text that replaces the form, or throws the error to show.
 */
function wireConfirmed(form: HTMLFormElement, send: () => Promise<string>): void {
  const box = form.querySelector('.confirmar') as HTMLElement
  const first = form.querySelector('button[type="submit"]') as HTMLButtonElement
  const yes = form.querySelector('[data-confirm]') as HTMLButtonElement
  const back = form.querySelector('[data-cancel]') as HTMLButtonElement
  form.addEventListener('submit', (event) => {
    event.preventDefault()
    showError(form, '')
    box.hidden = false
    first.disabled = true
    yes.focus()
  })
  back.addEventListener('click', () => {
    box.hidden = true
    first.disabled = false
    first.focus()
  })
  yes.addEventListener('click', async () => {
    const done = busy(yes, 'Enviando…')
    try {
      replaceBy(form, await send())
    } catch (error) {
      done()
      showError(form, error instanceof Error ? error.message : String(error))
    }
  })
}

async function post(path: string, body?: unknown): Promise<Response> {
  const res = await fetch(path, {
    method: 'POST',
    headers: {
      'x-csrf-token': csrfToken(),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? null : JSON.stringify(body),
  }).catch(() => null)
  if (!res) throw new Error('Sem conexão. Tente de novo.')
  if (res.status === 401) throw new Error('Sua sessão terminou. Entre de novo para continuar.')
  if (!res.ok) throw new Error(await errorText(res, 'Confira os campos do formulário.'))
  return res
}

for (const form of document.querySelectorAll<HTMLFormElement>('form.reembolso')) {
  wireConfirmed(form, async () => {
    const reason = (form.elements.namedItem('reason') as HTMLTextAreaElement).value
    await post(`/api/me/orders/${form.dataset.order}/refund`, { reason })
    return 'Reembolso solicitado'
  })
}

for (const form of document.querySelectorAll<HTMLFormElement>('form.cancelar')) {
  wireConfirmed(form, async () => {
    const res = await post(`/api/me/subscriptions/${form.dataset.subscription}/cancel`)
    const { data } = (await res.json()) as { data: { current_period_end: string } }
    return `Assinatura cancelada. Você mantém o acesso até ${DATE.format(new Date(data.current_period_end))}.`
  })
}

wireLoginLinkForm()
wireLoginForm()
