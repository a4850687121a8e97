// Asaas' withdrawal validation webhook ("mecanismo de validação de saque"): with it on, Asaas
// POSTs every new transfer (`{ type: "TRANSFER", transfer: {…} }`) to us 5 s after it was
// created and makes it only if we approve. We approve exactly the transfers we started: the
// externalReference is a withdrawal of ours whose transfer was started, for the same amount
// and to the same PIX key. Anything else (a transfer made with a stolen API key, a payment of
// a bill or a QR code) is refused, and Asaas cancels it. docs/gateways/asaas.md, "Adapter".
import type { Executor } from '../../../../kit/db.ts'
import { isUuid } from '../../../../kit/ids.ts'
import { isBrlAmount, toCents } from '../../../../kit/money.ts'
import { findWithdrawal } from '../../../payouts/withdrawals.ts'
import type { AsaasJson } from './client.ts'
import { text } from './read.ts'
import { asaasPixKey } from './transfers.ts'

export type AuthorizationAnswer =
  | { status: 'APPROVED' }
  | { status: 'REFUSED'; refuseReason: string }

const refuse = (refuseReason: string): AuthorizationAnswer => ({ status: 'REFUSED', refuseReason })

/** The PIX key the transfer pays: Asaas echoes it in `bankAccount` (or at the root). */
function keyOf(transfer: AsaasJson): string | null {
  const account = transfer.bankAccount
  const nested =
    typeof account === 'object' && account !== null
      ? text((account as AsaasJson).pixAddressKey)
      : null
  return nested ?? text(transfer.pixAddressKey)
}

export async function decideTransferAuthorization(
  db: Executor,
  body: unknown,
): Promise<AuthorizationAnswer> {
  const request = typeof body === 'object' && body !== null ? (body as AsaasJson) : {}
  if (request.type !== 'TRANSFER') return refuse('Vitrine só autoriza transferências de saques.')
  const transfer =
    typeof request.transfer === 'object' && request.transfer !== null
      ? (request.transfer as AsaasJson)
      : {}
  const reference = text(transfer.externalReference)
  if (!reference || !isUuid(reference)) return refuse('Transferência sem um saque da Vitrine.')
  const withdrawal = await findWithdrawal(db, reference)
  if (!withdrawal) return refuse('Saque desconhecido.')
  if (withdrawal.status !== 'approved' || !withdrawal.transfer_started_at)
    return refuse('Este saque não está aguardando transferência.')
  if (!isBrlAmount(transfer.value) || toCents(transfer.value) !== withdrawal.amount_cents)
    return refuse('O valor difere do saque.')
  const key = keyOf(transfer)
  const expected = asaasPixKey(withdrawal.pix_key_type, withdrawal.pix_key)
  if (!key || key.toLowerCase() !== expected.toLowerCase())
    return refuse('A chave Pix difere da do saque.')
  return { status: 'APPROVED' }
}
