// GET /checkout/<slug> (plan, coupon, ref, session), its success page, and a 404 page.
import { z } from 'zod'
import { AppError } from '../../kit/errors.ts'
import { priceWithCoupon } from '../../modules/catalog/coupons.ts'
import { findBySlug } from '../../modules/catalog/service.ts'
import { findSession, sessionToken } from '../../modules/checkout/sessions.ts'
import { findOrder } from '../../modules/orders/service.ts'
import type { RouteModule } from '../../routes.ts'
import { checkoutPage, notFoundPage, successPage } from './page.ts'

const REF_COOKIE = 'vitrine_ref'
const REF_MAX_AGE_S = 30 * 86_400

const Query = z.object({
  plan: z.string().max(64).optional(),
  coupon: z.string().max(64).optional(),
  ref: z
    .string()
    .regex(/^[\w-]{1,64}$/)
    .optional(),
  session: z.string().max(64).optional(),
})

export const checkoutPages: RouteModule = (app, deps) => {
  app.get(
    '/checkout/:slug',
    { schema: { hide: true, params: z.object({ slug: z.string().max(64) }), querystring: Query } },
    async (request, reply) => {
      const found = await findBySlug(deps.db, request.params.slug)
      if (!found?.plans.length) return reply.code(404).type('text/html').send(notFoundPage())
      const { product, plans } = found
      const q = request.query

      // Last click wins: a new ref replaces the cookie; visits without ref keep using it.
      let affiliateCode = request.cookies[REF_COOKIE] ?? null
      if (q.ref) {
        affiliateCode = q.ref
        reply.setCookie(REF_COOKIE, q.ref, {
          path: '/',
          maxAge: REF_MAX_AGE_S,
          sameSite: 'lax',
          httpOnly: true,
        })
      }

      const session =
        q.session && /^[0-9a-f-]{36}$/i.test(q.session)
          ? await findSession(deps.db, q.session)
          : undefined
      const sameProduct = session?.product_id === product.id ? session : undefined

      // A recovery link (?session=) brings back the coupon the buyer had, unless the URL has one.
      const couponCode = q.coupon ?? sameProduct?.coupon_code ?? undefined
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

      return reply.type('text/html').send(
        checkoutPage({
          product,
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
          prefill: {
            email: sameProduct?.email ?? '',
            name: sameProduct?.name ?? '',
            cpf: sameProduct?.cpf ?? '',
            phone: sameProduct?.phone ?? '',
          },
          session: sameProduct
            ? { id: sameProduct.id, token: sessionToken(deps, sameProduct.id) }
            : null,
          tokenizeUrl: deps.config.paymentGateway === 'sandbox' ? '/sandbox/card-tokens' : null,
        }),
      )
    },
  )

  app.get(
    '/checkout/:slug/success',
    {
      schema: {
        hide: true,
        params: z.object({ slug: z.string().max(64) }),
        querystring: z.object({ order_id: z.uuid().optional() }),
      },
    },
    async (request, reply) => {
      const found = await findBySlug(deps.db, request.params.slug)
      if (!found) return reply.code(404).type('text/html').send(notFoundPage())
      const order = request.query.order_id
        ? await findOrder(deps.db, request.query.order_id)
        : undefined
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
