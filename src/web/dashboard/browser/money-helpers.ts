// Small helpers of the money and integrations pages: a withdrawal's confirmation that names the
// amount being typed, "check every box of a group" (API key scopes), and copying a secret the
// page revealed once.
import { announce } from './forms.ts'

const brl = new Intl.NumberFormat('pt-BR', { style: 'currency', currency: 'BRL' })

/** The form's confirmation, rewritten from data-confirm-template as the amount changes. */
function nameTheAmount(field: HTMLInputElement): void {
  const form = field.form
  const template = field.dataset.confirmTemplate
  if (!form || !template) return
  const amount = Number(field.value.replace(',', '.'))
  if (!field.value.trim() || !Number.isFinite(amount)) return
  form.dataset.confirm = template.replace('{valor}', brl.format(amount))
}

export function wireMoneyHelpers(): void {
  document.addEventListener('input', (event) => {
    const field = event.target as HTMLInputElement
    if (field.matches?.('input[data-confirm-template]')) nameTheAmount(field)
  })
  document.addEventListener('click', (event) => {
    const target = event.target as Element
    const all = target.closest<HTMLButtonElement>('button[data-check-group]')
    if (all) {
      const group = document.getElementById(all.dataset.checkGroup ?? '')
      for (const box of group?.querySelectorAll<HTMLInputElement>('input[type=checkbox]') ?? [])
        box.checked = true
    }
    const copy = target.closest<HTMLButtonElement>('button[data-copy-from]')
    if (copy) {
      const text = document.getElementById(copy.dataset.copyFrom ?? '')?.textContent ?? ''
      void navigator.clipboard
        .writeText(text)
        .then(() => announce('Copiado.'))
        .catch(() => announce('Não foi possível copiar: selecione o texto e copie.'))
    }
  })
}
