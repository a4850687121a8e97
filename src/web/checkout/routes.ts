// GET /checkout/<slug> (plan, coupon, ref, session), its success page, and a 404 page.
import { z } from 'zod'
import type { Executor } from '../../kit/db.ts'
import { AppError } from '../../kit/errors.ts'
import { allowGatewayOrigins } from '../../kit/http/security-headers.ts'
import { priceWithCoupon } from '../../modules/catalog/coupons.ts'
import { findBySlug } from '../../modules/catalog/service.ts'
import { methodsOffered } from '../../modules/checkout/methods.ts'
import { findSession, sessionToken } from '../../modules/checkout/sessions.ts'
import { findOrder } from '../../modules/orders/service.ts'
import type { RouteModule } from '../../routes.ts'
import { browserTokenOrigins } from './gateway-origins.ts'
import { checkoutPage, notFoundPage, successPage } from './page.tsx'

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
  SLUG.test(slug) ? findBySlug(db, slug) : null

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
      const couponCode = (q.coupon ?? sameProduct?.coupon_code)?.trim().slice(0, 64)
      let coupon: { code: string; error: string | null } | null = null
      const discounts = new Map<string, number>()
      if (couponCode) {
        coupon = { code: couponCode.toUpperCase(), error: null }
        try {
          for (const plan of plans) {
            discounts.set(
              plan.id,
              (await priceWithCoupon(deps.db, deps, product.id, plan.price_cents, couponCode))
                .amountCents,
            )
          }
        } catch (error) {
          if (!(error instanceof AppError)) throw error
          coupon.error = error.message
          discounts.clear()
        }
      }

      const cardEntry = deps.gateway.cardEntry
      const methods = methodsOffered(product, deps.gateway.capabilities)
      if (cardEntry.kind === 'browser-token' && methods.includes('card')) {
        allowGatewayOrigins(reply, browserTokenOrigins(cardEntry.scriptUrl))
      }
      return reply.type('text/html').send(
        checkoutPage({
          product: {
            ...product,
            paymentMethods: methods,
            maxInstallments: product.max_installments,
            installmentInterest: product.installment_interest,
          },
          plans: plans.map((p) => ({
            id: p.id,
            name: p.name,
            priceCents: p.price_cents,
            discountedCents: discounts.get(p.id) ?? null,
            interval: p.interval,
          })),
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
