// How the PIX key field looks and types per key type: its keyboard, example and mask. Pure data
// and string functions, shared by the server-rendered field (pix-key.tsx) and the browser
// (browser/pix-key-input.ts bundles it), so the first paint and the typing agree. It must stay
// free of imports: it runs in both places, and browser/ files are not compiled for Node.

export type PixKeyKind = 'cpf' | 'cnpj' | 'email' | 'phone' | 'random'

export interface PixKeyInput {
  inputMode: 'numeric' | 'tel' | 'email' | 'text'
  placeholder: string
  hint: string
  autoCapitalize?: 'characters' | 'off'
}

export const PIX_KEY_INPUT: Record<PixKeyKind, PixKeyInput> = {
  cpf: { inputMode: 'numeric', placeholder: '000.000.000-00', hint: 'Só os números do CPF.' },
  // Not a numeric keyboard: CNPJs issued from July 2026 may have letters in the first 12 places.
  cnpj: {
    inputMode: 'text',
    placeholder: '00.000.000/0000-00',
    hint: 'Os 14 caracteres do CNPJ (números, ou letras no CNPJ alfanumérico).',
    autoCapitalize: 'characters',
  },
  email: {
    inputMode: 'email',
    placeholder: 'voce@exemplo.com.br',
    hint: 'O e-mail cadastrado no seu banco como chave Pix.',
    autoCapitalize: 'off',
  },
  phone: { inputMode: 'tel', placeholder: '(11) 98765-4321', hint: 'Celular com DDD.' },
  random: {
    inputMode: 'text',
    placeholder: '123e4567-e89b-12d3-a456-426614174000',
    hint: 'A chave aleatória como o banco mostra (8-4-4-4-12).',
    autoCapitalize: 'off',
  },
}

/** `chars` laid into `pattern` ('0' = one character), separators only before a character. */
function laidOut(chars: string, pattern: string): string {
  let out = ''
  let next = 0
  for (const slot of pattern) {
    if (next >= chars.length) break
    if (slot === '0') out += chars[next++]
    else out += slot
  }
  return out
}

/** The key as the creator types it, masked for its type (e-mail and random keys as typed). */
export function maskedPixKeyInput(kind: PixKeyKind, value: string): string {
  switch (kind) {
    case 'cpf':
      return laidOut(value.replace(/\D/g, '').slice(0, 11), '000.000.000-00')
    case 'cnpj':
      return laidOut(
        value
          .toUpperCase()
          .replace(/[^0-9A-Z]/g, '')
          .slice(0, 14),
        '00.000.000/0000-00',
      )
    case 'phone': {
      let digits = value.replace(/\D/g, '')
      if (digits.length > 11 && digits.startsWith('55')) digits = digits.slice(2)
      digits = digits.slice(0, 11)
      return laidOut(digits, digits.length === 11 ? '(00) 00000-0000' : '(00) 0000-0000')
    }
    default:
      return value
  }
}

export const isPixKeyKind = (value: string): value is PixKeyKind => value in PIX_KEY_INPUT
