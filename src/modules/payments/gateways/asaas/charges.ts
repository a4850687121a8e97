// Charges at Asaas: created once per order (looked up by externalReference = our order id
// FIRST, since Asaas has no idempotency key), read back, closed. PIX and boleto artifacts are
// fetched after the create; a card is charged by the create itself.
import { onlyDigits } from '../../../../kit/documents.ts'
import { toBrl } from '../../../../kit/money.ts'
import { dueDateAfter, endOfDueDate } from '../../boleto.ts'
import {
  type ChargeRef,
  type ClosedChargeStatus,
  type CreateChargeInput,
  type GatewayCharge,
  GatewayRefused,
} from '../../gateway.ts'
import { type AsaasJson, AsaasRefused } from './client.ts'
import type { AsaasContext } from './context.ts'
import { customerFor, nationalPhone } from './customers.ts'
import {
  awaitingPayment,
  findGroup,
  groupCents,
  groupStatus,
  paymentPath,
  readGroup,
} from './payments.ts'
import { required, text } from './read.ts'
import { refundWholeGroup } from './refunds.ts'

const BOLETO_DUE_DAYS = 3
/** A declined card leaves nothing at Asaas: the charge we record for it has this id. */
const DECLINED_PREFIX = 'asaas-declined:'
/** Asaas' codes for a card it would not charge (the number, the holder, a saved card). */
const CARD_REFUSALS = ['invalid_creditCard', 'invalid_creditCardToken']

/** The Brasília calendar day of an instant (Asaas' due dates are Brasília days). */
function brasiliaDay(at: Date): string {
  return dueDateAfter(at, 0).toISOString().slice(0, 10)
}

function dueDateFor(ctx: AsaasContext, input: CreateChargeInput): string {
  const now = ctx.clock.now()
  if (input.method === 'boleto') return brasiliaDay(dueDateAfter(now, BOLETO_DUE_DAYS))
  // A PIX is due the day Vitrine's own expiry falls on (Asaas' QR would live 12 months more).
  const day = brasiliaDay(input.method === 'pix' ? input.expiresAt : now)
  const today = brasiliaDay(now)
  return day < today ? today : day
}

function cardFields(input: CreateChargeInput): AsaasJson {
  const { buyer } = input
  if (input.savedCard) return { creditCardToken: input.savedCard, remoteIp: input.remoteIp }
  const card = input.cardData
  if (!card) throw new GatewayRefused('Informe os dados do cartão de crédito.', 'input')
  const year = onlyDigits(card.expiryYear)
  return {
    creditCard: {
      holderName: card.holderName,
      number: onlyDigits(card.number),
      expiryMonth: onlyDigits(card.expiryMonth).padStart(2, '0'),
      expiryYear: year.length === 2 ? `20${year}` : year,
      ccv: card.cvv,
    },
    creditCardHolderInfo: {
      name: buyer.name,
      email: buyer.email,
      cpfCnpj: onlyDigits(buyer.document),
      postalCode: onlyDigits(buyer.postalCode ?? ''),
      addressNumber: buyer.addressNumber ?? '',
      phone: nationalPhone(buyer.phone),
    },
    // The buyer's IP, never ours: Asaas' fraud check reads it.
    remoteIp: input.remoteIp,
  }
}

function chargeBody(ctx: AsaasContext, input: CreateChargeInput, customer: string): AsaasJson {
  const billingType = { pix: 'PIX', boleto: 'BOLETO', card: 'CREDIT_CARD' }[input.method]
  const installments = input.method === 'card' ? (input.installments ?? 1) : 1
  return {
    customer,
    billingType,
    dueDate: dueDateFor(ctx, input),
    description: input.description.slice(0, 500),
    externalReference: input.reference,
    // 2 or more installments: Asaas divides `totalValue`; 1×: `value` alone (Asaas' rule).
    ...(installments > 1
      ? { installmentCount: installments, totalValue: toBrl(input.amountCents) }
      : { value: toBrl(input.amountCents) }),
    ...(input.method === 'card' ? cardFields(input) : {}),
  }
}

export async function createCharge(
  ctx: AsaasContext,
  input: CreateChargeInput,
): Promise<GatewayCharge> {
  // A retried create (the first answer lost) finds the first charge instead of making another.
  const existing = await findGroup(ctx, input.reference)
  if (existing) return describeGroup(ctx, existing, input.expiresAt)
  const customer = await customerFor(ctx, input.buyer)
  let created: AsaasJson
  try {
    created = await ctx.client.post('/payments', chargeBody(ctx, input, customer))
  } catch (error) {
    // A declined card is an answer, not a failure of the call: Asaas keeps nothing of it.
    if (input.method === 'card' && error instanceof AsaasRefused && isCardRefusal(error))
      return declinedCharge(input, error.reason)
    throw error
  }
  return describeGroup(ctx, await readGroup(ctx, created), input.expiresAt)
}

function isCardRefusal(error: AsaasRefused): boolean {
  return error.status === 400 && error.codes.some((code) => CARD_REFUSALS.includes(code))
}

function declinedCharge(input: CreateChargeInput, reason: string): GatewayCharge {
  const number = input.cardData ? onlyDigits(input.cardData.number) : ''
  return {
    gatewayChargeId: `${DECLINED_PREFIX}${input.reference}`,
    status: 'failed',
    amountCents: input.amountCents,
    pix: null,
    boleto: null,
    card: { status: 'declined', last4: number.slice(-4), declineReason: reason },
    savedCard: null,
  }
}

export async function getCharge(
  ctx: AsaasContext,
  reference: string,
): Promise<GatewayCharge | null> {
  const group = await findGroup(ctx, reference)
  return group && describeGroup(ctx, group, null)
}

/**
 * The port's view of a group. `pixExpiresAt`: Vitrine's own PIX expiry when we know it (at
 * create); read back later, the end of the PIX's due day stands for it (Asaas keeps no field
 * of ours but the reference).
 */
async function describeGroup(
  ctx: AsaasContext,
  group: AsaasJson[],
  pixExpiresAt: Date | null,
): Promise<GatewayCharge> {
  const first = group[0]!
  const id = required(first, 'id')
  const status = groupStatus(ctx, group)
  const payable = awaitingPayment(first)
  const card = first.creditCard as AsaasJson | null | undefined
  let pix: GatewayCharge['pix'] = null
  let boleto: GatewayCharge['boleto'] = null
  if (first.billingType === 'PIX' && payable) {
    const qr = await ctx.client.get(`${paymentPath(id)}/pixQrCode`)
    const dueDate = required(first, 'dueDate')
    pix = { copyPaste: required(qr, 'payload'), expiresAt: pixExpiresAt ?? endOfDueDate(dueDate) }
  }
  if (first.billingType === 'BOLETO' && payable) {
    const field = await ctx.client.get(`${paymentPath(id)}/identificationField`)
    boleto = {
      digitableLine: required(field, 'identificationField'),
      barcode: required(field, 'barCode'),
      dueDate: required(first, 'dueDate'),
      url: text(first.bankSlipUrl),
    }
  }
  return {
    gatewayChargeId: id,
    status,
    amountCents: groupCents(group),
    pix,
    boleto,
    card:
      first.billingType === 'CREDIT_CARD' && card
        ? { status: 'approved', last4: text(card.creditCardNumber) ?? '', declineReason: null }
        : null,
    savedCard: (card && text(card.creditCardToken)) ?? null,
  }
}

/**
 * Closes the charge: a payable one is removed (how Vitrine's own PIX and boleto expiry reaches
 * Asaas), a paid one refunded in full. One that cannot be closed yet (in risk analysis, a PIX
 * under a precautionary block) throws: the answer is "not now", and the caller asks again.
 */
export async function cancelCharge(ctx: AsaasContext, ref: ChargeRef): Promise<ClosedChargeStatus> {
  if (ref.gatewayChargeId.startsWith(DECLINED_PREFIX)) return 'failed'
  let payment: AsaasJson
  try {
    payment = await ctx.client.get(paymentPath(ref.gatewayChargeId))
  } catch (error) {
    // Asaas has no such charge: it holds no money.
    if (error instanceof AsaasRefused && error.status === 404) return 'canceled'
    throw error
  }
  if (text(payment.externalReference) !== ref.reference)
    throw new Error(`asaas: charge ${ref.gatewayChargeId} is not the one of order ${ref.reference}`)
  const group = await readGroup(ctx, payment)
  const status = groupStatus(ctx, group)
  if (status === 'pending' && group.every((p) => awaitingPayment(p) || p.deleted === true)) {
    for (const p of group) if (p.deleted !== true) await removePayment(ctx, required(p, 'id'))
    return 'canceled'
  }
  if (status === 'paid') {
    await refundWholeGroup(ctx, group, `cancel-${ref.reference}`)
    return 'refunded'
  }
  if (status === 'pending')
    throw new Error(`asaas: charge ${ref.gatewayChargeId} cannot be closed yet (${payment.status})`)
  return status
}

async function removePayment(ctx: AsaasContext, id: string): Promise<void> {
  try {
    await ctx.client.delete(paymentPath(id))
  } catch (error) {
    // Removed meanwhile (a retried cancel): what we wanted.
    if (error instanceof AsaasRefused && error.status === 404) return
    throw error
  }
}
