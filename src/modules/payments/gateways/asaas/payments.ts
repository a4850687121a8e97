// Reading Asaas payments back: one order is one payment, or one per installment (linked by the
// `installment` id, each carrying our order id as externalReference). The first installment
// stands for the group: its id is our gatewayChargeId, its status the group's.
import type { GatewayChargeStatus } from '../../gateway.ts'
import type { AsaasJson } from './client.ts'
import type { AsaasContext } from './context.ts'
import { cents, listData, text } from './read.ts'
import { chargeStatusOf } from './statuses.ts'

export const paymentPath = (id: string) => `/payments/${encodeURIComponent(id)}`

const installmentNumber = (p: AsaasJson) =>
  typeof p.installmentNumber === 'number' ? p.installmentNumber : 0

/** The payments of the order `reference`, first installment first; null when Asaas has none. */
export async function findGroup(ctx: AsaasContext, reference: string): Promise<AsaasJson[] | null> {
  const found = listData(
    await ctx.client.get('/payments', { externalReference: reference, limit: '100' }),
  )
  if (found.length === 0) return null
  const first = found.sort((a, b) => installmentNumber(a) - installmentNumber(b))[0]!
  return readGroup(ctx, first)
}

/** A payment's whole group: itself, or every installment of its plan in order. */
export async function readGroup(ctx: AsaasContext, payment: AsaasJson): Promise<AsaasJson[]> {
  const installment = text(payment.installment)
  if (!installment) return [payment]
  const all = listData(await ctx.client.get('/payments', { installment, limit: '100' }))
  // A removed installment is hidden from lists: the one read back stays in the group.
  const group = all.some((p) => p.id === payment.id) ? all : [payment, ...all]
  return group.sort((a, b) => installmentNumber(a) - installmentNumber(b))
}

/** The group's state: the first installment's, unless any installment is charged back. */
export function groupStatus(ctx: AsaasContext, group: AsaasJson[]): GatewayChargeStatus {
  const statuses = group.map((payment) => {
    const read = chargeStatusOf({
      status: String(payment.status),
      billingType: String(payment.billingType),
      deleted: payment.deleted === true,
    })
    if (!read.known)
      ctx.log.warn({ paymentId: payment.id, status: payment.status }, 'asaas: unknown status')
    return read.status
  })
  return statuses.includes('chargeback') ? 'chargeback' : statuses[0]!
}

/** What the group charges in all (a late boleto's `value` is what was paid). */
export function groupCents(group: AsaasJson[]): number {
  return group.reduce((sum, payment) => sum + cents(payment.value, 'value'), 0)
}

/** Asaas' own words for "still payable": only these can be removed, or show a QR or a line. */
export function awaitingPayment(payment: AsaasJson): boolean {
  return payment.deleted !== true && (payment.status === 'PENDING' || payment.status === 'OVERDUE')
}
