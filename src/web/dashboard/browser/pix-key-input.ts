// The PIX key field follows the chosen type: keyboard, example and hint change with the select,
// and the CPF, CNPJ and phone are masked as they are typed (the API takes them masked or not).
import { isPixKeyKind, maskedPixKeyInput, PIX_KEY_INPUT } from '../balance/pix-key-format.ts'

function fieldOf(select: HTMLSelectElement): HTMLInputElement | null {
  return document.getElementById(select.dataset.pixKeyField ?? '') as HTMLInputElement | null
}

function follow(select: HTMLSelectElement): void {
  const field = fieldOf(select)
  const kind = select.value
  if (!field || !isPixKeyKind(kind)) return
  const input = PIX_KEY_INPUT[kind]
  field.inputMode = input.inputMode
  field.placeholder = input.placeholder
  field.setAttribute('autocapitalize', input.autoCapitalize ?? 'off')
  field.value = maskedPixKeyInput(kind, field.value)
  const hint = document.getElementById(`${field.id}-dica`)
  if (hint) hint.textContent = input.hint
}

export function wirePixKeyInput(): void {
  document.addEventListener('change', (event) => {
    const select = (event.target as Element).closest<HTMLSelectElement>(
      'select[data-pix-key-field]',
    )
    if (select) follow(select)
  })
  document.addEventListener('input', (event) => {
    const field = event.target as HTMLInputElement
    if (!field.matches?.('input[data-pix-key-type-from]')) return
    const select = document.getElementById(field.dataset.pixKeyTypeFrom ?? '') as HTMLSelectElement
    if (!select || !isPixKeyKind(select.value)) return
    const masked = maskedPixKeyInput(select.value, field.value)
    if (masked !== field.value) field.value = masked
  })
}
