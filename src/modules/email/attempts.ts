// A mail's attempts: each under a lease (a crashed worker's mail comes back when it expires),
// retried with a doubling wait, given up after MAX_ATTEMPTS. Shared by the worker's passes
// (jobs.ts) and its born mails (born-mails.ts).
import type { Deps } from '../../deps.ts'
import { emailRepo as repo } from './repo.ts'

export const MAX_ATTEMPTS = 8
// The lease outlives the slowest pass, or another worker would send its mails again: each of
// the pool's connections carries a pass's 100 mails / SMTP_CONNECTIONS (at least 10, config.ts)
// in a row, each bounded by the transport's time-outs (connect 10 s + greeting 10 s + socket
// 30 s): 10 × 50 s at worst. The price: mail a crashed worker had claimed waits up to 10 minutes.
export const EMAIL_LEASE_MS = 10 * 60_000

export function emailRetryDelayMs(attempt: number, baseMs: number): number {
  return Math.min(baseMs * 2 ** (attempt - 1), 3_600_000)
}

/** A send that failed: tried again later with a doubling wait, or given up after MAX_ATTEMPTS. */
export async function recordFailedSend(
  deps: Deps,
  id: string,
  attempts: number,
  error: unknown,
  retryBaseMs: number,
) {
  const message = error instanceof Error ? error.message : String(error)
  const next =
    attempts >= MAX_ATTEMPTS
      ? null
      : new Date(deps.clock.now().getTime() + emailRetryDelayMs(attempts, retryBaseMs))
  deps.log.warn({ emailId: id, attempt: attempts, error: message }, 'e-mail not sent')
  await repo.markRetry(deps.database.relaxed, id, message.slice(0, 1000), next)
}
