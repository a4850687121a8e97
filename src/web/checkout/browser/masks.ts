// Input masks for the checkout's number fields: the buyer types digits, the field shows them
// grouped as printed on documents and cards. The caret stays after the same digit it followed.
// An alphanumeric CNPJ (2026) has letters: the CPF/CNPJ field then keeps what was typed.

/** Shapes the digits; null leaves the text as typed (more digits than the mask knows). */
type Mask = (digits: string) => string | null

/** Fills `pattern`'s `#` with the digits, stopping at the last digit (no trailing punctuation). */
function shape(pattern: string, digits: string): string {
  let out = ''
  let i = 0
  for (const ch of pattern) {
    if (i >= digits.length) break
    if (ch === '#') out += digits[i++]
    else out += ch
  }
  return out
}

const upTo =
  (max: number, pattern: string): Mask =>
  (d) =>
    d.length > max ? null : shape(pattern, d)

const MASKS: Record<string, Mask> = {
  cpf: (d) => (d.length <= 11 ? shape('###.###.###-##', d) : upTo(14, '##.###.###/####-##')(d)),
  phone: (d) => (d.length <= 10 ? shape('(##) ####-####', d) : upTo(11, '(##) #####-####')(d)),
  card_number: upTo(19, '#### #### #### #### ###'),
  card_expiry: upTo(4, '##/##'),
  card_cvv: upTo(4, '####'),
  postal_code: upTo(8, '#####-###'),
  boleto_cep: upTo(8, '#####-###'),
}

function applyMask(input: HTMLInputElement, mask: Mask) {
  const value = input.value
  // Letters (an alphanumeric CNPJ) or a +55 prefix: leave the text as typed.
  if (/[a-z]/i.test(value) || value.trim().startsWith('+')) return
  const caret = input.selectionStart ?? value.length
  const digitsBefore = value.slice(0, caret).replace(/\D/g, '').length
  const masked = mask(value.replace(/\D/g, ''))
  if (masked === null || masked === value) return
  input.value = masked
  let pos = 0
  for (let seen = 0; pos < masked.length && seen < digitsBefore; pos++) {
    if (/\d/.test(masked[pos]!)) seen++
  }
  if (document.activeElement === input) input.setSelectionRange(pos, pos)
}

/** Masks every field of the form that has one, as the buyer types (or pastes). */
export function wireMasks(form: HTMLFormElement): void {
  form.addEventListener('input', (event) => {
    const input = event.target as HTMLInputElement
    const mask = MASKS[input.name]
    if (mask && input.tagName === 'INPUT') applyMask(input, mask)
  })
}
