// The sandbox's network faults, chosen by test e-mail domains (of a buyer, or of a PIX key):
// `@instavel.example` lets the call through but loses its first answer (a connection reset
// after the request left), `@inalcancavel.example` never reaches the gateway. Either way the
// caller does not know what happened, which is what the unknown-answer paths are for.
export const SANDBOX_UNSTABLE_DOMAIN = '@instavel.example'
export const SANDBOX_UNREACHABLE_DOMAIN = '@inalcancavel.example'

const answered = new Set<string>()

/** Throws when the gateway cannot be reached from an address at the unreachable domain. */
export function reachOrThrow(address: string) {
  if (address.endsWith(SANDBOX_UNREACHABLE_DOMAIN)) throw new Error('sandbox: gateway unreachable')
}

/** After the call was carried out: throws the first time for an address at the unstable domain. */
export function loseFirstAnswer(address: string, reference: string) {
  if (!address.endsWith(SANDBOX_UNSTABLE_DOMAIN) || answered.has(reference)) return
  answered.add(reference)
  throw new Error('sandbox: connection reset before the answer')
}
