// The card's own checks, one message beside each field (number, name, expiry, CVV), before
// anything is sent. No Luhn check here: the gateway's tokenization says so, and a number the
// page refused could never reach a gateway that would have taken it.

type CardField = 'card_number' | 'card_holder' | 'card_expiry' | 'card_cvv'

const digits = (s: string) => s.replace(/\D/g, '')

/** Sets (or clears, with '') a card field's error, beside it and in aria-invalid. */
export function cardFieldError(name: CardField, message: string): boolean {
  const input = document.getElementById(name)
  const line = document.getElementById(`erro-${name}`)
  if (!input || !line) return true
  line.textContent = message
  line.hidden = !message
  input.setAttribute('aria-invalid', message ? 'true' : 'false')
  return !message
}

function expiryProblem(text: string, now: Date): string {
  const match = /^\s*(\d{1,2})\s*\/\s*(\d{2}|\d{4})\s*$/.exec(text)
  const month = match ? Number(match[1]) : 0
  if (!match || month < 1 || month > 12) return 'Informe a validade no formato MM/AA.'
  const year = match[2]!.length === 2 ? 2000 + Number(match[2]) : Number(match[2])
  // A card is valid through the last day of its month.
  if (year * 12 + month < now.getFullYear() * 12 + now.getMonth() + 1)
    return 'Este cartão está vencido.'
  return ''
}

/** Checks every card field; true when all are fine. */
export function validateCard(form: HTMLFormElement, now = new Date()): boolean {
  const value = (name: CardField) =>
    (form.elements.namedItem(name) as HTMLInputElement | null)?.value ?? ''
  const number = digits(value('card_number'))
  let ok = cardFieldError(
    'card_number',
    number.length >= 13 && number.length <= 19 ? '' : 'Informe os 13 a 19 dígitos do cartão.',
  )
  ok =
    cardFieldError(
      'card_holder',
      value('card_holder').trim().length >= 2 ? '' : 'Informe o nome impresso no cartão.',
    ) && ok
  ok = cardFieldError('card_expiry', expiryProblem(value('card_expiry'), now)) && ok
  ok =
    cardFieldError(
      'card_cvv',
      /^\d{3,4}$/.test(value('card_cvv').trim()) ? '' : 'Informe o CVV: 3 ou 4 dígitos no verso.',
    ) && ok
  return ok
}

/** A server's answer about one card field (Asaas' card data checks), shown beside that field. */
export function cardFieldOf(message: string): CardField | null {
  if (/^Número do cartão/i.test(message)) return 'card_number'
  if (/^(Validade|Mês|Ano)/i.test(message)) return 'card_expiry'
  if (/^CVV/i.test(message)) return 'card_cvv'
  if (/^Nome (impresso|do titular)/i.test(message)) return 'card_holder'
  return null
}

/** Clears every card error (a new attempt, another method). */
export function clearCardErrors(): void {
  for (const name of ['card_number', 'card_holder', 'card_expiry', 'card_cvv'] as const)
    cardFieldError(name, '')
}
