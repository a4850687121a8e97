// Sends the hosted checkout's order (POST /api/checkout/create) so that a lost answer never
// charges a buyer twice and a busy service is waited out rather than shown as a failure.
//
// Each purchase attempt carries an Idempotency-Key (SPEC §1). While its outcome is unknown (the
// connection dropped, or the answer was not ours to read) the page keeps the key with the exact
// body it sent, so that paying again with the form unchanged replays the first answer instead
// of placing a second order: a card charged once stays charged once. Any answer the service
// gave ends the attempt, and the next one gets a new key.
//
// The key of an attempt without an answer is also kept in the tab's sessionStorage (with its
// payment method, never the body, which may hold the card), so that a buyer who reloads the
// page after losing the answer is shown what that order became (`lostAnswer`) instead of an
// empty form inviting a second purchase.
//
// A 503 or 409 that says when to come back (Retry-After: load shedding, or the same key still
// being handled) is sent again by the page itself, a few times, telling the buyer it waits.

/** What the buyer reads when the answer never came; the attempt is kept for the next click. */
export const NO_ANSWER =
  'Sem resposta do servidor. Confira sua conexão e tente de novo: se o pagamento já foi feito, ele não será cobrado duas vezes.'

/** What the buyer reads while the page waits to send again, and if it stops waiting. */
const BUSY_WAIT = 'Muitas pessoas comprando agora. Tentando de novo em instantes…'
const STILL_PROCESSING =
  'Seu pedido ainda está sendo processado. Aguarde alguns segundos e tente de novo.'
const STILL_PROCESSING_WAIT = 'Seu pedido ainda está sendo processado. Aguarde…'

/** Automatic retries of one click, and the longest Retry-After the page waits out by itself. */
const MAX_RETRIES = 2
const MAX_WAIT_SECONDS = 10

export interface Answer<T> {
  res: Response
  result: T
  /** The order's payment method, as sent. */
  method: string
}

interface Attempt {
  intent: string
  key: string
  body: string
  method: string
}

/**
 * `intent` is everything the buyer chose, card fields included, as one string: the kept attempt
 * is sent again only for the same intent. `bodyOf` makes the body (a card token, say) only for a
 * new attempt. `onWait` tells the buyer the page is about to try again by itself.
 */
export function orderSender(store: AttemptStore, onWait: (message: string) => void) {
  let kept: Attempt | null = null
  return async function send<T extends { error?: string }>(
    intent: string,
    bodyOf: () => Promise<Record<string, unknown>>,
  ): Promise<Answer<T>> {
    if (kept?.intent !== intent) {
      const body = await bodyOf()
      const method = String(body.payment_method)
      kept = { intent, key: randomKey(), body: JSON.stringify(body), method }
    }
    const attempt = kept
    store.keep(attempt)
    for (let retries = 0; ; retries++) {
      const res = await fetch('/api/checkout/create', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'idempotency-key': attempt.key },
        body: attempt.body,
      }).catch(() => null)
      const result = res ? ((await res.json().catch(() => null)) as T | null) : null
      if (!res || !result) throw new Error(NO_ANSWER)
      const wait = retryAfterSeconds(res)
      if (wait === null) {
        if (kept === attempt) kept = null
        store.forget()
        return { res, result, method: attempt.method }
      }
      // Shed, or still being handled: nothing new was done, so the attempt stays for the next click.
      const busy = res.status === 503
      if (retries === MAX_RETRIES) throw new Error(busy ? result.error : STILL_PROCESSING)
      onWait(busy ? BUSY_WAIT : STILL_PROCESSING_WAIT)
      await new Promise((resolve) => setTimeout(resolve, backoffMs(wait, retries)))
    }
  }
}

/** How many times the page asks about a lost answer still being handled before leaving it be. */
const LOST_ANSWER_TRIES = 10

/**
 * The answer to the order this tab sent last without hearing back (its page reloaded since),
 * as the service kept it under the order's key: null when there is none to ask about, when the
 * order never reached the service (its key is then forgotten), or when it cannot be asked now.
 */
export async function lostAnswer<T>(
  store: AttemptStore,
  onWait: (message: string) => void,
): Promise<Answer<T> | null> {
  const kept = store.read()
  if (!kept) return null
  for (let tries = 1; ; tries++) {
    const res = await fetch(`/api/checkout/attempts/${kept.key}`).catch(() => null)
    if (!res) return null
    if (res.status === 404) {
      store.forget()
      return null
    }
    const wait = retryAfterSeconds(res)
    if (wait !== null) {
      if (tries === LOST_ANSWER_TRIES) return null
      onWait(STILL_PROCESSING_WAIT)
      await new Promise((resolve) => setTimeout(resolve, wait * 1000))
      continue
    }
    const result = (await res.json().catch(() => null)) as T | null
    if (!result) return null
    store.forget()
    return { res, result, method: kept.method }
  }
}

/** Where the tab keeps its unanswered attempt: its key and payment method, never its body. */
export interface AttemptStore {
  read(): { key: string; method: string } | null
  keep(attempt: { key: string; method: string }): void
  forget(): void
}

/**
 * An AttemptStore in the tab's sessionStorage under `name`. Storage can be off (private modes,
 * policies): the page then works as before, keeping the attempt in memory only.
 */
export function sessionAttemptStore(name: string): AttemptStore {
  const quietly = <R>(use: () => R): R | null => {
    try {
      return use()
    } catch {
      return null
    }
  }
  return {
    read: () => {
      const [method, key] = (quietly(() => sessionStorage.getItem(name)) ?? '').split(' ')
      return method && key ? { method, key } : null
    },
    keep: ({ key, method }) => quietly(() => sessionStorage.setItem(name, `${method} ${key}`)),
    forget: () => quietly(() => sessionStorage.removeItem(name)),
  }
}

/** 128 random bits in hex: `crypto.randomUUID` exists only on HTTPS pages and localhost. */
function randomKey(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16))
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('')
}

/**
 * Retry-After, half again longer at each try, plus up to a second at random: buyers turned away
 * in the same moment of a launch come back spread out, not as one wave (with Retry-After 2:
 * 2–3 s, then 3–4 s; then the buyer reads the message and may press again, the attempt kept).
 */
function backoffMs(retryAfterSeconds: number, retries: number): number {
  return (retryAfterSeconds * (1 + retries / 2) + Math.random()) * 1000
}

/** Seconds to wait before sending again, for the answers the page retries by itself. */
function retryAfterSeconds(res: Response): number | null {
  if (res.status !== 503 && res.status !== 409) return null
  const seconds = Number(res.headers.get('retry-after'))
  if (!res.headers.has('retry-after') || !Number.isFinite(seconds)) return null
  return seconds <= MAX_WAIT_SECONDS ? Math.max(1, seconds) : null
}
