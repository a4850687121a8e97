// GET /checkout/<slug> (plan, coupon, ref, session), its success page, and a 404 page.
import { z } from 'zod'
import type { Deps } from '../../deps.ts'
import type { Executor } from '../../kit/db.ts'
import { AppError } from '../../kit/errors.ts'
import { allowGatewayOrigins } from '../../kit/http/security-headers.ts'
import { INVALID_COUPON, pricesWithCoupon } from '../../modules/catalog/coupons.ts'
import { storefrontBySlug } from '../../modules/catalog/service.ts'
import { methodsOffered } from '../../modules/checkout/methods.ts'
import { findSession, sessionToken } from '../../modules/checkout/sessions.ts'
import { findOrder } from '../../modules/orders/service.ts'
import type { RouteModule } from '../../routes.ts'
import type { CouponQuote } from './config.ts'
import { browserTokenOrigins } from './gateway-origins.ts'
import { type CheckoutView, checkoutPage, notFoundPage, planLabels, successPage } from './page.tsx'

const REF_COOKIE = 'vitrine_ref'
const REF_MAX_AGE_S = 30 * 86_400

// A buyer arrives from links that others built: a repeated, mangled or overlong parameter
// never turns the page into a JSON error. Repeated → the last one; bad values are ignored
// (a bad coupon is shown as `Cupom inválido`).
const Param = z
  .union([z.string(), z.array(z.string())])
  .optional()
  .transform((v) => (Array.isArray(v) ? v.at(-1) : v))
const Query = z.object({ plan: Param, coupon: Param, ref: Param, session: Param })
const REF = /^[\w-]{1,64}$/
const SLUG = /^[a-z0-9-]{3,64}$/
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

/** The active product behind a slug; an impossible slug is simply not found. */
const productBySlug = async (db: Executor, slug: string) =>
  SLUG.test(slug) ? storefrontBySlug(db, slug) : null

type Storefront = NonNullable<Awaited<ReturnType<typeof storefrontBySlug>>>

/** Each plan's price with the coupon; an unknown, expired or used-up coupon says why. */
async function couponPrices(deps: Deps, found: Storefront, rawCode: string | undefined) {
  const code = rawCode?.trim().slice(0, 64)
  const discounts = new Map<string, number>()
  if (!code) return { coupon: null, discounts }
  const coupon = { code: code.toUpperCase(), error: null as string | null }
  try {
    const prices = found.plans.map((plan) => plan.price_cents)
    const priced = await pricesWithCoupon(deps.db, deps, found.product.id, prices, code)
    for (const [i, plan] of found.plans.entries()) discounts.set(plan.id, priced.amountsCents[i]!)
  } catch (error) {
    if (!(error instanceof AppError)) throw error
    coupon.error = error.message
    discounts.clear()
  }
  return { coupon, discounts }
}

const planViews = (found: Storefront, discounts: Map<string, number>): CheckoutView['plans'] =>
  found.plans.map((p) => ({
    id: p.id,
    name: p.name,
    priceCents: p.price_cents,
    discountedCents: discounts.get(p.id) ?? null,
    interval: p.interval,
  }))

const productView = (deps: Deps, found: Storefront): CheckoutView['product'] => ({
  ...found.product,
  imageUrl: found.product.image_url,
  guaranteeDays: found.product.guarantee_days,
  sellerName: found.sellerName,
  paymentMethods: methodsOffered(found.product, deps.gateway.capabilities),
  maxInstallments: found.product.max_installments,
  installmentInterest: found.product.installment_interest,
})

export const checkoutPages: RouteModule = (app, deps) => {
  app.get(
    '/checkout/:slug',
    { schema: { hide: true, params: z.object({ slug: z.string() }), querystring: Query } },
    async (request, reply) => {
      const found = await productBySlug(deps.db, request.params.slug)
      if (!found?.plans.length) return reply.code(404).type('text/html').send(notFoundPage())
      const { product, plans } = found
      const q = request.query

      // Last click wins: a new ref replaces the cookie; visits without ref keep using it.
      const cookie = request.cookies[REF_COOKIE]
      let affiliateCode = cookie && REF.test(cookie) ? cookie : null
      if (q.ref && REF.test(q.ref)) {
        affiliateCode = q.ref
        reply.setCookie(REF_COOKIE, q.ref, {
          path: '/',
          maxAge: REF_MAX_AGE_S,
          sameSite: 'lax',
          httpOnly: true,
        })
      }

      const session =
        q.session && UUID.test(q.session) ? await findSession(deps.db, q.session) : undefined
      const sameProduct = session?.product_id === product.id ? session : undefined

      // A recovery link (?session=) brings back the coupon the buyer had, unless the URL has one.
      const { coupon, discounts } = await couponPrices(
        deps,
        found,
        q.coupon ?? sameProduct?.coupon_code ?? undefined,
      )

      const cardEntry = deps.gateway.cardEntry
      const productOnPage = productView(deps, found)
      const gateway =
        cardEntry.kind === 'browser-token' && productOnPage.paymentMethods.includes('card')
          ? browserTokenOrigins(cardEntry.scriptUrl)
          : { script: [], connect: [] }
      // The product image's host, and only it, may serve this page an image.
      const img = productOnPage.imageUrl ? [new URL(productOnPage.imageUrl).origin] : []
      if (gateway.script.length || img.length) allowGatewayOrigins(reply, { ...gateway, img })
      return reply.type('text/html').send(
        checkoutPage({
          product: productOnPage,
          plans: planViews(found, discounts),
          selectedPlanId:
            plans.find((p) => p.id === (q.plan ?? sameProduct?.plan_id))?.id ?? plans[0]!.id,
          coupon,
          affiliateCode,
          // Never the CPF or phone: anyone who knows a buyer's e-mail can obtain the session
          // (same e-mail + product → same session, by the seed), so only what they typed comes back.
          prefill: { email: sameProduct?.email ?? '', name: sameProduct?.name ?? '' },
          session: sameProduct
            ? { id: sameProduct.id, token: sessionToken(deps, sameProduct.id) }
            : null,
          tokenizeUrl: deps.config.paymentGateway === 'sandbox' ? '/sandbox/card-tokens' : null,
          cardEntry,
          boletoAddress: deps.gateway.capabilities.boletoNeedsAddress,
          installmentRateBps: deps.config.cardInstallmentInterestBps,
        }),
      )
    },
  )

  // The coupon field's question: the plans' labels with this coupon (the page's own data, so
  // a page route like the page itself, not part of the API). Never an error status: an invalid
  // coupon is an answer the page shows beside the field.
  app.get(
    '/checkout/:slug/cupom',
    {
      schema: {
        hide: true,
        params: z.object({ slug: z.string() }),
        querystring: z.object({ code: Param }),
      },
    },
    async (request, reply) => {
      const found = await productBySlug(deps.db, request.params.slug)
      if (!found?.plans.length) return reply.code(404).send({ error: 'Not found' })
      const { coupon, discounts } = await couponPrices(deps, found, request.query.code)
      const quote: CouponQuote = {
        coupon: coupon && !coupon.error ? coupon.code : null,
        message: !coupon ? '' : coupon.error ? INVALID_COUPON : `Cupom ${coupon.code} aplicado`,
        plans: planLabels({
          product: productView(deps, found),
          plans: planViews(found, discounts),
          installmentRateBps: deps.config.cardInstallmentInterestBps,
        }),
      }
      return reply.header('cache-control', 'no-store').send(quote)
    },
  )

  app.get(
    '/checkout/:slug/success',
    {
      schema: {
        hide: true,
        params: z.object({ slug: z.string() }),
        querystring: z.object({ order_id: Param }),
      },
    },
    async (request, reply) => {
      const found = await productBySlug(deps.db, request.params.slug)
      if (!found) return reply.code(404).type('text/html').send(notFoundPage())
      const orderId = request.query.order_id
      const order = orderId && UUID.test(orderId) ? await findOrder(deps.db, orderId) : undefined
      const paid = order?.product_id === found.product.id && order.status === 'paid'
      return reply.type('text/html').send(
        successPage({
          productName: found.product.name,
          paid,
          membersUrl: `${deps.config.baseUrl}/members`,
        }),
      )
    },
  )
}
