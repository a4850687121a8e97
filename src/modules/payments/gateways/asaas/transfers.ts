// Payouts by Asaas transfer to the holder's PIX key (`POST /transfers`). Asaas has no
// idempotency key and its transfer list has no externalReference filter, so a transfer is
// looked up by paging through the list and matching our withdrawal id ourselves, before any
// new one is made: a retried payout never pays twice.

import type { PixKeyType } from '../../../../kit/db-schema.ts'
import { onlyDigits } from '../../../../kit/documents.ts'
import { toBrl } from '../../../../kit/money.ts'
import type { PixTransferInput, PixTransferResult } from '../../../payouts/provider.ts'
import type { AsaasJson } from './client.ts'
import type { AsaasContext } from './context.ts'
import { nationalPhone } from './customers.ts'
import { listData, text } from './read.ts'
import { transferStateOf } from './statuses.ts'

const PAGE = 100

/** Our key types onto Asaas' `pixAddressKeyType`; a random key is an "EVP" in the DICT's words. */
export const ASAAS_KEY_TYPES: Record<PixKeyType, string> = {
  cpf: 'CPF',
  cnpj: 'CNPJ',
  email: 'EMAIL',
  phone: 'PHONE',
  random: 'EVP',
}

/** The key as Asaas takes it: documents without punctuation, phones with the area code. */
export function asaasPixKey(type: PixKeyType, key: string): string {
  switch (type) {
    case 'cpf':
      return onlyDigits(key)
    case 'cnpj':
      return key.replace(/[^0-9A-Za-z]/g, '').toUpperCase()
    case 'phone':
      return nationalPhone(key)
    case 'email':
    case 'random':
      return key
  }
}

export function transferResult(ctx: AsaasContext, transfer: AsaasJson): PixTransferResult {
  const status = String(transfer.status)
  const { state, known } = transferStateOf(status)
  if (!known) ctx.log.warn({ transferId: transfer.id, status }, 'asaas: unknown transfer status')
  return {
    status: state,
    gatewayTransferId: text(transfer.id),
    failureReason:
      state === 'failed'
        ? (text(transfer.failReason) ??
          (status === 'CANCELLED'
            ? 'Transferência cancelada no Asaas.'
            : 'Transferência recusada.'))
        : null,
  }
}

/** The transfer made for withdrawal `reference`, read page by page; null when there is none. */
export async function findTransfer(
  ctx: AsaasContext,
  reference: string,
): Promise<AsaasJson | null> {
  for (let offset = 0; ; offset += PAGE) {
    const page = await ctx.client.get('/transfers', { offset: String(offset), limit: String(PAGE) })
    const found = listData(page).find((t) => t.externalReference === reference)
    if (found) return found
    if (page.hasMore !== true) return null
  }
}

export async function transferPix(
  ctx: AsaasContext,
  input: PixTransferInput,
): Promise<PixTransferResult> {
  const existing = await findTransfer(ctx, input.reference)
  if (existing) return transferResult(ctx, existing)
  const created = await ctx.client.post('/transfers', {
    value: toBrl(input.amountCents),
    pixAddressKey: asaasPixKey(input.pixKeyType, input.pixKey),
    pixAddressKeyType: ASAAS_KEY_TYPES[input.pixKeyType],
    description: input.description.slice(0, 140),
    externalReference: input.reference,
  })
  return transferResult(ctx, created)
}

export async function getTransfer(
  ctx: AsaasContext,
  reference: string,
): Promise<PixTransferResult | null> {
  const found = await findTransfer(ctx, reference)
  return found && transferResult(ctx, found)
}
