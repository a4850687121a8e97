// The confirmation before a money action: a modal <dialog> listing what will happen (amount,
// holder, PIX key). Resolves true on "Confirmar", false on "Cancelar" or Escape.
import { h } from './dom.ts'

export function confirmAction(title: string, facts: [string, string][]): Promise<boolean> {
  const dialog = document.getElementById('confirmar') as HTMLDialogElement
  const yes = document.getElementById('confirmar-sim') as HTMLButtonElement
  const no = document.getElementById('confirmar-nao') as HTMLButtonElement
  ;(document.getElementById('confirmar-titulo') as HTMLElement).textContent = title
  const list = document.getElementById('confirmar-texto') as HTMLElement
  list.replaceChildren(...facts.flatMap(([term, value]) => [h('dt', {}, term), h('dd', {}, value)]))
  yes.textContent = title.split(' ')[0] ?? 'Confirmar'
  const opener = document.activeElement as HTMLElement | null
  return new Promise((resolve) => {
    const done = (answer: boolean) => {
      yes.removeEventListener('click', onYes)
      no.removeEventListener('click', onNo)
      dialog.removeEventListener('close', onClose)
      if (dialog.open) dialog.close()
      opener?.focus()
      resolve(answer)
    }
    const onYes = () => done(true)
    const onNo = () => done(false)
    const onClose = () => done(false)
    yes.addEventListener('click', onYes)
    no.addEventListener('click', onNo)
    dialog.addEventListener('close', onClose)
    dialog.showModal()
    no.focus()
  })
}
