// Asaas charges a customer, not a document: the buyer's customer is found by CPF/CNPJ, else
// created. Asaas accepts two customers with one CPF, so a race at worst makes a second one,
// which charges just as well.
import { onlyDigits } from '../../../../kit/documents.ts'
import type { CreateChargeInput } from '../../gateway.ts'
import type { AsaasContext } from './context.ts'
import { listData, text } from './read.ts'

/** Phone digits as Asaas takes them: area code and number, without the country code. */
export function nationalPhone(phone: string): string {
  const digits = onlyDigits(phone)
  return digits.length > 11 && digits.startsWith('55') ? digits.slice(2) : digits
}

export async function customerFor(
  ctx: AsaasContext,
  buyer: CreateChargeInput['buyer'],
): Promise<string> {
  const cpfCnpj = onlyDigits(buyer.document)
  const found = listData(await ctx.client.get('/customers', { cpfCnpj }))[0]
  const id = found && text(found.id)
  if (id) return id
  const created = await ctx.client.post('/customers', {
    name: buyer.name,
    cpfCnpj,
    email: buyer.email,
    mobilePhone: nationalPhone(buyer.phone),
    postalCode: buyer.postalCode ? onlyDigits(buyer.postalCode) : undefined,
    addressNumber: buyer.addressNumber || undefined,
    // Vitrine sends its own e-mails; Asaas would otherwise notify the buyer too.
    notificationDisabled: true,
  })
  const createdId = text(created.id)
  if (!createdId) throw new Error('asaas POST /customers: answer without an id')
  return createdId
}
