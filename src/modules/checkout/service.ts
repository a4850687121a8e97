import type { Deps } from '../../deps.ts'
import { withTx } from '../../kit/db.ts'
import { normalizeBrazilianPhone, normalizeTaxId } from '../../kit/documents.ts'
import { BadRequest, NotFound, PaymentRequired } from '../../kit/errors.ts'
import { uuidv7 } from '../../kit/ids.ts'
import { toBrl } from '../../kit/money.ts'
import { createLoginLink, ensureBuyer } from '../accounts/service.ts'
import { priceWithCoupon, redeemCoupon } from '../catalog/coupons.ts'
import { findProductById, sellable } from '../catalog/service.ts'
import { queueEmail } from '../email/service.ts'
import { accessEmail } from '../email/templates.ts'
import { cancelShares, commissionFields, planShares, recordShares } from '../ledger/shares.ts'
import { createOrder, findOrder, markFailed } from '../orders/service.ts'
import { barcodeSvgDataUrl, endOfDueDate } from '../payments/boleto.ts'
import { confirmPayment } from '../payments/confirm.ts'
import { pixQrDataUrl } from '../payments/qr.ts'
import { recordCharge } from '../payments/service.ts'
import { emitEvent } from '../webhooks/service.ts'
import type { CheckoutOut, CreateCheckoutInput } from './schema.ts'
import { markConverted } from './sessions.ts'

const METHODS = { one_time: ['pix'], recurring: ['pix', 'card', 'boleto'] } as const

/**
 * Creates the buyer (if new), the pending order and the gateway charge. The charge is created
 * first, outside the transaction (a gateway call never holds a database lock); then one
 * transaction writes everything of ours, so a failure leaves nothing half-written. A charge
 * orphaned by a failed transaction is never paid for an order and simply expires.
 */
export async function createCheckout(deps: Deps, input: CreateCheckoutInput): Promise<CheckoutOut> {
  const { product, plan } = await sellable(deps.db, input.product_id, input.plan_id)
  if (!(METHODS[product.billing] as readonly string[]).includes(input.payment_method)) {
    throw new BadRequest('Forma de pagamento não aceita para este produto')
  }
  const taxId = normalizeTaxId(input.cpf)
  if (!taxId) throw new BadRequest('CPF/CNPJ inválido')
  const phone = normalizeBrazilianPhone(input.phone)
  if (!phone) throw new BadRequest('Telefone inválido')
  if (input.payment_method === 'card' && !input.card_token) throw new BadRequest('Informe o cartão')

  const now = deps.clock.now()
  const orderId = uuidv7(now.getTime())
  const priced = input.coupon_code
    ? await priceWithCoupon(deps.db, deps, product.id, plan.price_cents, input.coupon_code)
    : null
  const amountCents = priced?.amountCents ?? plan.price_cents
  const charge = await deps.gateway.createCharge({
    reference: orderId,
    method: input.payment_method,
    amountCents,
    description: product.name,
    buyer: { name: input.name, email: input.email, document: taxId.value, phone },
    expiresAt: new Date(now.getTime() + deps.config.pixExpiresAfterMs),
    cardToken: input.card_token,
    installments: input.installments,
  })

  const order = await withTx(deps.db, async (tx) => {
    const buyer = await ensureBuyer(tx, deps, { name: input.name, email: input.email })
    if (buyer.created) {
      await queueEmail(tx, deps, {
        to: input.email,
        dedupeKey: `access:${buyer.user.id}`,
        ...accessEmail({
          buyerName: input.name,
          productName: product.name,
          loginUrl: await createLoginLink(tx, deps, buyer.user.id),
        }),
      })
    }
    const shares = await planShares(tx, {
      productId: product.id,
      amountCents,
      affiliateCode: input.affiliate_code,
      buyerId: buyer.user.id,
    })
    const created = await createOrder(tx, {
      id: orderId,
      account_id: product.account_id,
      product_id: product.id,
      plan_id: plan.id,
      buyer_id: buyer.user.id,
      buyer_email: input.email,
      buyer_name: input.name,
      buyer_document: taxId.value,
      buyer_phone: phone,
      status: 'pending',
      amount_cents: amountCents,
      payment_method: input.payment_method,
      coupon_code: priced?.coupon.code ?? null,
      expires_at:
        charge.pix?.expiresAt ?? (charge.boleto ? endOfDueDate(charge.boleto.dueDate) : null),
      created_at: now,
      updated_at: now,
      ...commissionFields(shares),
    })
    // A declined card never takes a redemption; any other order holds one until it expires.
    if (priced && charge.status !== 'failed') await redeemCoupon(tx, priced.coupon.id)
    if (input.session_id) {
      await markConverted(tx, { sessionId: input.session_id, productId: product.id, orderId })
    }
    await recordCharge(tx, deps, {
      orderId,
      gateway: deps.gateway.name,
      charge,
      method: input.payment_method,
      amountCents,
    })
    await emitEvent(tx, deps, {
      accountId: product.account_id,
      type: 'order.created',
      data: {
        order_id: orderId,
        amount: toBrl(amountCents),
        product_id: product.id,
        buyer_email: input.email,
      },
    })
    await recordShares(tx, deps, created, shares)
    if (charge.status === 'paid') await confirmPayment(tx, deps, orderId)
    if (charge.status === 'failed') {
      await markFailed(tx, orderId, now)
      await cancelShares(tx, deps, created)
    }
    return created
  })
  if (charge.status === 'failed') throw new PaymentRequired('Cartão recusado')

  return {
    order_id: order.id,
    status: charge.status,
    amount: toBrl(amountCents),
    currency: 'BRL',
    payment_method: input.payment_method,
    charge_id: charge.gatewayChargeId,
    pix: charge.pix
      ? {
          qr_code: await pixQrDataUrl(charge.pix.copyPaste),
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
        }
      : null,
    card: charge.card,
  }
}

/** What the checkout page polls: status and, once paid, where to send the buyer. */
export async function orderStatus(deps: Pick<Deps, 'db' | 'config'>, orderId: string) {
  const order = await findOrder(deps.db, orderId)
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
