// Refunds at Asaas (`POST /payments/{id}/refund { value, description }`). Asaas has no
// idempotency key and gives a refund no id of its own, but lists a payment's refunds with their
// description: ours carries our refund id, so a retried refund first finds what it already did
// and asks only for the rest. An installment plan is refunded from its last installment back,
// so its first one (which stands for the group) turns REFUNDED only when all of it is.
import { toBrl } from '../../../../kit/money.ts'
import {
  GatewayRefused,
  type RefundInput,
  type RefundRef,
  type RefundResult,
} from '../../gateway.ts'
import type { AsaasJson } from './client.ts'
import type { AsaasContext } from './context.ts'
import { paymentPath, readGroup } from './payments.ts'
import { cents, required } from './read.ts'

/** The description that marks a refund as ours: Asaas shows it in its panel too. */
const tag = (reference: string) => `Vitrine ${reference}`

function refundsOf(payment: AsaasJson): AsaasJson[] {
  return Array.isArray(payment.refunds) ? (payment.refunds as AsaasJson[]) : []
}

/** What a payment still holds (what a refund may return), in centavos. */
export function refundableCents(payment: AsaasJson): number {
  if (payment.status === 'REFUNDED') return 0
  const refunded = refundsOf(payment)
    .filter((r) => r.status !== 'CANCELLED')
    .reduce((sum, r) => sum + cents(r.value, 'refunds[].value'), 0)
  return cents(payment.value, 'value') - refunded
}

/** Our refund's entries across the group (several when it spans installments). */
function entriesOf(group: AsaasJson[], reference: string): AsaasJson[] {
  return group.flatMap((p) => refundsOf(p).filter((r) => r.description === tag(reference)))
}

/** The refund's state from its entries: null when Asaas has none. */
function resultOf(entries: AsaasJson[]): RefundResult | null {
  if (entries.length === 0) return null
  const statuses = entries.map((e) => e.status)
  if (statuses.includes('CANCELLED'))
    return { status: 'failed', gatewayRefundId: null, failureReason: 'O Asaas cancelou o estorno.' }
  // Asaas gives refunds no id: the entries are found again by our reference.
  if (statuses.includes('PENDING'))
    return { status: 'pending', gatewayRefundId: null, failureReason: null }
  return { status: 'completed', gatewayRefundId: null, failureReason: null }
}

async function groupOf(ctx: AsaasContext, gatewayChargeId: string): Promise<AsaasJson[]> {
  return readGroup(ctx, await ctx.client.get(paymentPath(gatewayChargeId)))
}

export async function getRefund(ctx: AsaasContext, ref: RefundRef): Promise<RefundResult | null> {
  return resultOf(entriesOf(await groupOf(ctx, ref.gatewayChargeId), ref.reference))
}

export async function refund(ctx: AsaasContext, input: RefundInput): Promise<RefundResult> {
  const group = await groupOf(ctx, input.gatewayChargeId)
  const done = entriesOf(group, input.reference).reduce((s, e) => s + cents(e.value, 'value'), 0)
  await refundAcross(ctx, group, input.reference, input.amountCents - done)
  return resultOf(entriesOf(await groupOf(ctx, input.gatewayChargeId), input.reference))!
}

/** Everything the group still holds, as one refund of ours (a cancel of a paid charge). */
export async function refundWholeGroup(ctx: AsaasContext, group: AsaasJson[], reference: string) {
  const left = group.reduce((sum, p) => sum + refundableCents(p), 0)
  await refundAcross(ctx, group, reference, left)
}

/** Asks Asaas for `amountCents` more, from the last installment back. */
async function refundAcross(
  ctx: AsaasContext,
  group: AsaasJson[],
  reference: string,
  amountCents: number,
): Promise<void> {
  if (amountCents <= 0) return
  const plan: [id: string, cents: number][] = []
  let left = amountCents
  for (const payment of [...group].reverse()) {
    const take = Math.min(left, refundableCents(payment))
    if (take > 0) plan.push([required(payment, 'id'), take])
    left -= take
    if (left === 0) break
  }
  if (left > 0) throw new GatewayRefused('O valor do estorno excede o saldo da cobrança.', 'input')
  for (const [id, take] of plan) {
    await ctx.client.post(`${paymentPath(id)}/refund`, {
      value: toBrl(take),
      description: tag(reference),
    })
  }
}
