import type { Deps } from '../../deps.ts'
import { withTx } from '../../kit/db.ts'
import { normalizeBrazilianPhone, normalizeTaxId } from '../../kit/documents.ts'
import {
  AppError,
  BadRequest,
  Conflict,
  NotFound,
  PaymentRequired,
  UnknownOutcome,
} from '../../kit/errors.ts'
import { uuidv7 } from '../../kit/ids.ts'
import { toBrl } from '../../kit/money.ts'
import type { RateLimit } from '../../kit/rate-limit.ts'
import { userIdByEmail } from '../accounts/service.ts'
import { priceWithCoupon } from '../catalog/coupons.ts'
import { findProductById, sellableAfterHit } from '../catalog/service.ts'
import { planShares } from '../ledger/shares.ts'
import { findOrderStatus } from '../orders/service.ts'
import { barcodeSvgDataUrl } from '../payments/boleto.ts'
import { nextLook } from '../payments/charge-lookups.ts'
import { settleCheck } from '../payments/checks.ts'
import { type CreateChargeInput, type GatewayCharge, GatewayRefused } from '../payments/gateway.ts'
import {
  type ChargeOutcome,
  cancelAtGateway,
  chargeExpiry,
  dropCharge,
  failUnchargedOrder,
  recordCheckoutCharge,
} from '../payments/order-charge.ts'
import { pixQrDataUrl } from '../payments/qr.ts'
import { chargePart } from '../payments/service.ts'
import { buyerAddressOf, cardDataOf, postalCodeOf } from './card.ts'
import { installmentsOf } from './installments.ts'
import { assertMethodOffered } from './methods.ts'
import { openOrder } from './open-order.ts'
import type { CheckoutOut, CreateCheckoutInput } from './schema.ts'

/** A card is charged within the request; this bounds how long its order may wait for that. */
const CARD_WINDOW_MS = 15 * 60_000

export const PAYMENT_UNKNOWN =
  'Não conseguimos confirmar o pagamento com a operadora. Aguarde alguns minutos antes de tentar de novo: se a cobrança foi feita, a confirmação do pedido chega por e-mail; se não, nada será cobrado.'
/**
 * The gateway's answer to a charge never came: the order stays pending and reconciliation
 * settles it. Whether money moved is unknown, so this answer is kept for its Idempotency-Key
 * (an UnknownOutcome): the same request again hears it again, never a second charge. Its
 * details name the order, which the hosted checkout follows until it is settled.
 */
export class PaymentUnknown extends UnknownOutcome {
  constructor(orderId: string) {
    super(502, PAYMENT_UNKNOWN, 'bad_gateway', [{ path: 'order_id', message: orderId }])
  }
}
export const CHARGE_CANCELED =
  'Não foi possível concluir o pedido, e a cobrança foi cancelada: nada foi cobrado. Tente de novo.'
export const CHARGE_BEING_CANCELED =
  'Não foi possível concluir o pedido. Se algum valor aparecer na sua fatura, ele será estornado automaticamente.'

/**
 * Creates the buyer (if new), the pending order and the gateway charge (SPEC §4, §5). The
 * product is read in the statement that logs the request's rate-limit hit (a full window is a
 * 429 before anything else). One statement writes the buyer, the order, its shares and opens
 * the order's gateway check, after its coupon's redemption when there is one (open-order.ts).
 * A card or boleto order is written first, then the gateway charges it, outside any
 * transaction, and a second write records the answer (order-charge.ts): a coupon used up
 * meanwhile is refused before any charge. A PIX is issued first and written with its order
 * (chargeThenOrder). A charge our side cannot keep is canceled at the gateway; an answer that
 * never came is looked up later by the reconciliation worker.
 */
export async function createCheckout(
  deps: Deps,
  input: CreateCheckoutInput,
  request: {
    remoteIp?: string | undefined
    /** The request's rate-limit hit, logged in the statement that reads the product. */
    limit: { rule: RateLimit; key: string }
  },
): Promise<CheckoutOut> {
  const { product, plan, splits } = await sellableAfterHit(
    deps.database.relaxed,
    deps.clock,
    request.limit,
    input.product_id,
    input.plan_id,
  )
  assertMethodOffered(product, deps.gateway.capabilities, input.payment_method)
  const taxId = normalizeTaxId(input.cpf)
  if (!taxId) throw new BadRequest('CPF/CNPJ inválido')
  const phone = normalizeBrazilianPhone(input.phone)
  if (!phone) throw new BadRequest('Telefone inválido')
  const count = installmentCount(product, input)
  const card = cardOf(deps, input)
  const address =
    input.payment_method === 'boleto' && input.address ? buyerAddressOf(input.address) : undefined

  const now = deps.clock.now()
  const orderId = uuidv7(now.getTime())
  const priced = input.coupon_code
    ? await priceWithCoupon(deps.db, deps, product.id, plan.price_cents, input.coupon_code)
    : null
  const priceCents = priced?.amountCents ?? plan.price_cents
  // What the buyer pays in all: the price, plus the installments' interest when theirs.
  const installments = installmentsOf(
    product,
    priceCents,
    count,
    deps.config.cardInstallmentInterestBps,
  )
  const amountCents = installments.totalCents
  const pixExpiresAt = new Date(now.getTime() + deps.config.pixExpiresAfterMs)
  // A boleto's comes with its due date, once the gateway issued it.
  const orderExpiry = {
    pix: pixExpiresAt,
    card: new Date(now.getTime() + CARD_WINDOW_MS),
    boleto: null,
  }[input.payment_method]

  const shares = await planShares(deps.db, {
    productId: product.id,
    // Shares are of the price: the interest is the platform's.
    amountCents: priceCents,
    affiliateCode: input.affiliate_code,
    // Nobody is their own affiliate: asked only when there is one to be.
    buyerId: input.affiliate_code ? await userIdByEmail(deps.db, input.email) : null,
    splits,
  })
  const opening: OrderOpening = {
    order: {
      id: orderId,
      account_id: product.account_id,
      product_id: product.id,
      plan_id: plan.id,
      buyer_email: input.email,
      buyer_name: input.name,
      buyer_document: taxId.value,
      buyer_phone: phone,
      status: 'pending',
      amount_cents: amountCents,
      installments: count,
      buyer_ip: request.remoteIp ?? null,
      interest_cents: installments.interestCents,
      payment_method: input.payment_method,
      coupon_code: priced?.coupon.code ?? null,
      expires_at: orderExpiry,
      created_at: now,
      updated_at: now,
    },
    productName: product.name,
    shares,
    couponId: priced?.coupon.id,
    sessionId: input.session_id,
  }

  const buyer: CreateChargeInput['buyer'] = {
    name: input.name,
    email: input.email,
    document: taxId.value,
    phone,
    postalCode: card?.postalCode ?? address?.postalCode,
    addressNumber: card?.addressNumber ?? address?.number,
    address,
  }
  const chargeInput: CreateChargeInput = {
    reference: orderId,
    method: input.payment_method,
    amountCents,
    description: product.name,
    buyer,
    expiresAt: pixExpiresAt,
    cardToken: card?.token,
    cardData: card?.data,
    installments: input.payment_method === 'card' ? count : undefined,
    remoteIp: request.remoteIp,
  }
  const { charge, status } =
    input.payment_method === 'pix'
      ? await chargeThenOrder(deps, opening, chargeInput)
      : await orderThenCharge(deps, opening, chargeInput)
  if (status === 'failed' && charge.status === 'failed') {
    // The seed's words, and the gateway's reason in the error shape's details (SPEC §1).
    const reason = charge.card?.declineReason
    throw new PaymentRequired(
      'Cartão recusado',
      reason ? [{ path: 'card', message: reason }] : undefined,
    )
  }
  if (status !== 'pending' && status !== 'paid') throw new Conflict(CHARGE_CANCELED)

  return {
    order_id: orderId,
    status,
    amount: toBrl(amountCents),
    currency: 'BRL',
    payment_method: input.payment_method,
    charge_id: charge.gatewayChargeId,
    pix: charge.pix
      ? {
          qr_code: pixQrDataUrl(charge.pix.copyPaste),
          copy_paste: charge.pix.copyPaste,
          expires_at: charge.pix.expiresAt.toISOString(),
        }
      : null,
    boleto: charge.boleto
      ? {
          barcode: charge.boleto.barcode,
          digitable_line: charge.boleto.digitableLine,
          due_date: charge.boleto.dueDate,
          barcode_image: barcodeSvgDataUrl(charge.boleto.barcode),
          pdf_url: charge.boleto.url,
          url: charge.boleto.url,
        }
      : null,
    card: charge.card ? { status: charge.card.status, last4: charge.card.last4 } : null,
    installments: count,
    interest: toBrl(installments.interestCents),
  }
}

type OrderOpening = Parameters<typeof openOrder>[1]

/**
 * Order first, then the charge (cards, which are charged at once, and boletos): the order is
 * written before the gateway is asked, so a buyer is never charged without one.
 */
async function orderThenCharge(deps: Deps, opening: OrderOpening, chargeInput: CreateChargeInput) {
  const orderId = opening.order.id
  await openOrder(deps, opening)
  let charge: GatewayCharge
  try {
    charge = await deps.gateway.createCharge(chargeInput)
  } catch (error) {
    return noCharge(deps, orderId, error)
  }
  return { charge, status: await recordOrDrop(deps, { orderId, charge }) }
}

/**
 * PIX: the charge first, then the order with it in one statement — one write and one commit a
 * purchase fewer than order-first. Issuing a PIX moves no money, and nobody can pay it before
 * this request answers with its code, so a charge whose order is not written (a coupon used up
 * meanwhile, our failure, a crash between the two) is never paid: it is canceled at the gateway
 * when we can, and otherwise expires there unseen. A refused or unknown answer, or one that is
 * not a pending PIX, is met as order-first meets it, with the order written first.
 */
async function chargeThenOrder(deps: Deps, opening: OrderOpening, chargeInput: CreateChargeInput) {
  const orderId = opening.order.id
  let charge: GatewayCharge
  try {
    charge = await deps.gateway.createCharge(chargeInput)
  } catch (error) {
    await openOrder(deps, opening)
    return noCharge(deps, orderId, error)
  }
  // The order was to expire when the PIX was asked to (its charge may answer sooner).
  const expiresAt = chargeExpiry(charge, chargeInput.expiresAt)
  if (charge.status !== 'pending' || !expiresAt) {
    await openOrder(deps, opening)
    return { charge, status: await recordOrDrop(deps, { orderId, charge }) }
  }
  // The order's check first looks at the charge when an unpaid PIX is worth a look.
  const lookAt = nextLook(deps, { created_at: deps.clock.now() }, expiresAt)
  const { amount_cents: amountCents } = opening.order
  const gateway = deps.gateway.name
  try {
    await openOrder(deps, {
      ...opening,
      order: { ...opening.order, expires_at: expiresAt },
      charge: {
        part: chargePart(deps, { orderId, gateway, charge, method: 'pix', amountCents }),
        lookAt,
      },
    })
  } catch (error) {
    const closed = await cancelAtGateway(deps, {
      reference: orderId,
      gatewayChargeId: charge.gatewayChargeId,
    })
    // What the buyer must change (a coupon used up) is said as it is; our failure is a 503.
    if (error instanceof AppError) throw error
    deps.log.error({ err: error, orderId }, 'writing the order of a PIX charge failed')
    const message = typeof closed === 'string' ? CHARGE_CANCELED : CHARGE_BEING_CANCELED
    throw new AppError(503, message, 'unavailable')
  }
  return { charge, status: 'pending' as const }
}

/** The gateway made no charge it told us of: refused (the order fails), or the answer is unknown. */
function noCharge(deps: Deps, orderId: string, error: unknown): Promise<never> {
  if (error instanceof GatewayRefused) return refused(deps, orderId, error)
  // The order stays pending without a charge; reconciliation looks it up by the order id.
  deps.log.warn({ err: error, orderId }, 'gateway charge answer unknown')
  throw new PaymentUnknown(orderId)
}

/** Installments are a card's, up to what the product allows (recurring: the seed's 12). */
function installmentCount(
  product: { max_installments: number },
  input: Pick<CreateCheckoutInput, 'payment_method' | 'installments'>,
) {
  const count = input.installments ?? 1
  if (count > 1 && input.payment_method !== 'card') {
    throw new BadRequest('Parcelamento só no cartão de crédito')
  }
  if (count > product.max_installments) {
    throw new BadRequest(`Este produto aceita no máximo ${product.max_installments}x no cartão`)
  }
  return count
}

/**
 * The card as this gateway takes it (`cardEntry`): a token made in the page, or the card data
 * itself with the holder's CEP and address number. Card data is refused where the gateway
 * tokenizes in the page, so it never crosses our server without need.
 */
function cardOf(deps: Pick<Deps, 'gateway' | 'clock'>, input: CreateCheckoutInput) {
  if (input.payment_method !== 'card') {
    if (input.card) throw new BadRequest('Dados de cartão só com pagamento por cartão')
    return null
  }
  if (deps.gateway.cardEntry.kind !== 'card-data') {
    if (input.card) throw new BadRequest('Este checkout não recebe dados de cartão: use card_token')
    if (!input.card_token) throw new BadRequest('Informe o cartão')
    return {
      token: input.card_token,
      data: undefined,
      postalCode: undefined,
      addressNumber: undefined,
    }
  }
  if (!input.card) throw new BadRequest('Informe os dados do cartão')
  if (!input.postal_code || !input.address_number) {
    throw new BadRequest('Informe o CEP e o número do endereço do titular do cartão')
  }
  return {
    token: undefined,
    data: cardDataOf(input.card, deps.clock.now()),
    postalCode: postalCodeOf(input.postal_code),
    addressNumber: input.address_number,
  }
}

/**
 * The gateway answered that it charged nothing, and why: the order fails (its coupon and
 * shares given back) and the buyer reads the reason: 400 for what they sent, 502 for our setup.
 */
async function refused(deps: Deps, orderId: string, error: GatewayRefused): Promise<never> {
  deps.log.warn({ orderId, reason: error.reason, blame: error.blame }, 'gateway refused a charge')
  await withTx(deps.db, async (tx) => {
    await failUnchargedOrder(tx, deps, orderId)
    await settleCheck(tx, deps, orderId, `charge refused (${error.blame})`)
  }).catch((failure) => {
    // Reconciliation finds no charge for it and closes it.
    deps.log.error({ err: failure, orderId }, 'failing a refused order failed')
  })
  throw error.blame === 'input'
    ? new BadRequest(error.reason)
    : new AppError(502, error.reason, 'bad_gateway')
}

/**
 * Records the charge the gateway made for the order and returns the order's status after it.
 * When our side cannot keep the charge (the transaction fails, or the order closed meanwhile)
 * the charge is canceled at the gateway and the buyer told so: never a 500, never charged
 * without an order.
 */
async function recordOrDrop(deps: Deps, input: { orderId: string; charge: GatewayCharge }) {
  const { orderId, charge } = input
  let outcome: ChargeOutcome | null = null
  try {
    outcome = await recordCheckoutCharge(deps, { orderId, gateway: deps.gateway.name, charge })
  } catch (error) {
    deps.log.error({ err: error, orderId }, 'recording a charge failed; canceling it')
  }
  if (outcome?.kind === 'recorded') return outcome.status
  const ref = { reference: orderId, gatewayChargeId: charge.gatewayChargeId }
  const canceled = await dropCharge(deps, ref).catch((error) => {
    deps.log.error({ err: error, orderId }, 'failing the order of a dropped charge failed')
    return false
  })
  const message = canceled ? CHARGE_CANCELED : CHARGE_BEING_CANCELED
  // Our own failure is worth retrying (a 5xx is not kept for the Idempotency-Key); an order
  // that closed meanwhile (expired, settled by reconciliation) is not.
  throw outcome ? new Conflict(message) : new AppError(503, message, 'unavailable')
}

/** What the checkout page polls: status and, once paid, where to send the buyer. */
export async function orderStatus(deps: Pick<Deps, 'db' | 'config'>, orderId: string) {
  const order = await findOrderStatus(deps.db, orderId)
  if (!order) throw new NotFound('Pedido não encontrado')
  let redirectUrl: string | null = null
  if (order.status === 'paid') {
    const product = await findProductById(deps.db, order.product_id)
    redirectUrl =
      product?.success_url ??
      `${deps.config.checkoutUrl}/checkout/${product?.slug}/success?order_id=${order.id}`
  }
  return {
    id: order.id,
    status: order.status,
    paid_at: order.paid_at?.toISOString() ?? null,
    redirect_url: redirectUrl,
  }
}
