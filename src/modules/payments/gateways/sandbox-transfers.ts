// The sandbox's PIX transfers (payouts): each reference is paid once and its answer kept, like
// a real gateway's idempotency key. Test keys: an e-mail at `@recusada.example` is refused by
// the bank; one at `@processando.example` stays in the bank's hands (`pending`) for 10 minutes
// of the sandbox clock, then is done, as a real transfer awaiting the bank; one at
// `@instavel.example` loses the first call's answer (sandbox-faults.ts), so the unknown-answer
// paths (pay again, reconciliation) can be exercised.
import { uuidv7 } from '../../../kit/ids.ts'
import type { PayoutProvider, PixTransferInput, PixTransferResult } from '../../payouts/provider.ts'
import { books, type SandboxDeps } from './sandbox.ts'
import { loseFirstAnswer } from './sandbox-faults.ts'

export const SANDBOX_REFUSED_KEY_DOMAIN = '@recusada.example'
export const SANDBOX_SLOW_KEY_DOMAIN = '@processando.example'
const REFUSED = 'A chave Pix não pertence a uma conta ativa no banco de destino'
/** How long the sandbox's bank takes with a transfer to a slow key. */
export const SANDBOX_SLOW_TRANSFER_MS = 10 * 60_000

const atDomain = (input: Pick<PixTransferInput, 'pixKey' | 'pixKeyType'>, domain: string) =>
  input.pixKeyType === 'email' && input.pixKey.endsWith(domain)

/** The sandbox's payouts: the bank answers at once (done or refused), or later (slow keys). */
export function createSandboxPayouts(
  deps: Pick<SandboxDeps, 'database' | 'clock'>,
): PayoutProvider {
  return {
    name: 'sandbox',
    automatic: true,
    transferPix: (input) => transferSandboxPix(deps, input),
    getTransfer: (reference) => findSandboxTransfer(deps, reference),
  }
}

async function transferSandboxPix(
  deps: Pick<SandboxDeps, 'database' | 'clock'>,
  input: PixTransferInput,
): Promise<PixTransferResult> {
  const refused = atDomain(input, SANDBOX_REFUSED_KEY_DOMAIN)
  const slow = atDomain(input, SANDBOX_SLOW_KEY_DOMAIN)
  const now = deps.clock.now()
  await books(deps)
    .insertInto('sandbox_transfers')
    .values({
      id: `sbt_${uuidv7(now.getTime()).replace(/-/g, '')}`,
      reference: input.reference,
      pix_key: input.pixKey,
      pix_key_type: input.pixKeyType,
      amount_cents: input.amountCents,
      status: refused ? 'failed' : 'completed',
      failure_reason: refused ? REFUSED : null,
      settles_at: slow ? new Date(now.getTime() + SANDBOX_SLOW_TRANSFER_MS) : null,
      created_at: now,
    })
    .onConflict((oc) => oc.column('reference').doNothing())
    .execute()
  loseFirstAnswer(input.pixKey, input.reference)
  return (await findSandboxTransfer(deps, input.reference))!
}

/** The transfer made for a withdrawal, or null when the sandbox never made one. */
async function findSandboxTransfer(
  deps: Pick<SandboxDeps, 'database' | 'clock'>,
  reference: string,
): Promise<PixTransferResult | null> {
  const stored = await books(deps)
    .selectFrom('sandbox_transfers')
    .selectAll()
    .where('reference', '=', reference)
    .executeTakeFirst()
  if (!stored) return null
  if (stored.settles_at && deps.clock.now() < stored.settles_at) {
    return { status: 'pending', gatewayTransferId: stored.id, failureReason: null }
  }
  return {
    status: stored.status,
    gatewayTransferId: stored.status === 'completed' ? stored.id : null,
    failureReason: stored.failure_reason,
  }
}
