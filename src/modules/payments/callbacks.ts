// A gateway's (or payout provider's) notification, from authentic bytes to its one effect:
// the reader verifies it and reads the resource back; then a charge's state is applied, a
// transfer's end recorded, anything else ignored.
import type { Deps } from '../../deps.ts'
import { withTx, withTxTogether } from '../../kit/db.ts'
import { AppError, NotFound, Unauthorized } from '../../kit/errors.ts'
import { recordTransferNotice } from '../payouts/withdrawals.ts'
import type { CallbackReader, CallbackReading, CallbackRequest } from './gateway.ts'
import { returnLatePayment } from './late-payments.ts'
import { applyCallback } from './service.ts'

/**
 * Who reads the notifications posted to `/callback/{name}`: the gateway's reader, the payout
 * provider's (its transfer notices), or both in turn when they share the name and the URL
 * (Asaas takes payments and pays out): what the gateway ignores, the provider reads.
 */
function readerFor(deps: Deps, name: string): CallbackReader | null {
  const payouts =
    name === deps.payouts.name && deps.payouts.readCallback
      ? deps.payouts.readCallback.bind(deps.payouts)
      : null
  if (name !== deps.gateway.name) return payouts && { readCallback: payouts }
  if (!payouts) return deps.gateway
  return {
    async readCallback(request) {
      const reading = await deps.gateway.readCallback(request)
      return reading?.kind === 'ignored' ? payouts(request) : reading
    },
  }
}

async function applyReading(deps: Deps, reading: CallbackReading): Promise<string> {
  if (reading.kind === 'ignored') return 'ignored'
  if (reading.kind === 'transfer') {
    return recordTransferNotice(deps, reading.reference, reading.result)
  }
  const { callback } = reading
  const name = deps.gateway.name
  const apply = (lateReturned: boolean, open = withTx) =>
    open(deps.db, (tx) =>
      applyCallback(tx, deps, name, callback, { lateReturned, endsTransaction: true }),
    )
  // A payment, a launch's one callback a sale, may share its transaction with others arriving
  // at the same moment (kit/pg-shared-tx.ts); a reversal or a refusal goes alone.
  const outcome = await apply(false, callback.action === 'paid' ? withTxTogether : withTx)
  if (outcome !== 'late_payment_to_return') return outcome
  // A closed order was paid: the money goes back at the gateway before anything is recorded.
  await returnLatePayment(deps, callback)
  return apply(true)
}

/**
 * 404 for a name nobody reads, 401 for a forged notification (nothing changes), 503 when the
 * read-back went unanswered (the gateway delivers again; reconciliation looks meanwhile).
 */
export async function receiveCallback(deps: Deps, name: string, request: CallbackRequest) {
  const reader = readerFor(deps, name)
  if (!reader) throw new NotFound('Unknown gateway')
  let reading: CallbackReading | null
  try {
    reading = await reader.readCallback(request)
  } catch (error) {
    deps.log.warn({ err: error }, 'payment callback: read-back answer unknown')
    throw new AppError(503, 'Gateway indisponível; tente novamente', 'unavailable')
  }
  if (!reading) throw new Unauthorized()
  return { kind: reading.kind, outcome: await applyReading(deps, reading) }
}
