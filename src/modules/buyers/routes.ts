// The buyer's own API, behind the session cookie (the members area; buyers have no API keys).
// Every id is looked up among the caller's own orders and subscriptions: anyone else's is a 404.
import { z } from 'zod'
import { withTx } from '../../kit/db.ts'
import { actorOf } from '../../kit/http/guard.ts'
import { listOf } from '../../kit/http/pagination.ts'
import { IdParams } from '../../kit/http/schemas.ts'
import type { RouteModule } from '../../routes.ts'
import { RefundBody } from '../refunds/schema.ts'
import { BuyerRefundOut, MySubscriptionOut, PurchaseListQuery, PurchaseOut } from './schema.ts'
import * as buyers from './service.ts'

const tags = ['members']
const config = { guard: 'session' } as const

export const buyerRoutes: RouteModule = (app, deps) => {
  app.get(
    '/api/me/purchases',
    {
      config,
      schema: {
        tags,
        operationId: 'listMyPurchases',
        summary: "The caller's purchases",
        description:
          "Every order the logged-in user made as a buyer, newest first, with its live refund request and whether a refund may still be asked (guarantee period: the product's `guarantee_days`, at least 7).",
        querystring: PurchaseListQuery,
        response: { 200: listOf(PurchaseOut) },
      },
    },
    async (request) => {
      const page = await buyers.listPurchases(deps.db, deps, actorOf(request).userId, request.query)
      return { ...page, data: page.data.map(buyers.purchaseOut) }
    },
  )

  app.get(
    '/api/me/subscriptions',
    {
      config,
      schema: {
        tags,
        operationId: 'listMySubscriptions',
        summary: "The caller's subscriptions",
        description: 'Every subscription the logged-in user has as a buyer, newest first.',
        response: { 200: z.object({ data: z.array(MySubscriptionOut) }) },
      },
    },
    async (request) => {
      const subs = await buyers.listSubscriptions(deps.db, actorOf(request).userId)
      return { data: subs.map(buyers.subscriptionOut) }
    },
  )

  app.post(
    '/api/me/subscriptions/:id/cancel',
    {
      config,
      schema: {
        tags,
        operationId: 'cancelMySubscription',
        summary: 'Cancel one of my subscriptions',
        description:
          "Cancels at the period end: the buyer keeps access until then and is not charged again. 409 when already canceled; another buyer's subscription is a 404.",
        params: IdParams,
        response: { 200: z.object({ data: MySubscriptionOut }) },
        errors: [409],
      },
    },
    async (request) => {
      const { userId } = actorOf(request)
      const mine = await withTx(deps.db, (tx) =>
        buyers.cancelMySubscription(tx, deps, userId, request.params.id),
      )
      return { data: buyers.subscriptionOut(mine) }
    },
  )

  app.post(
    '/api/me/orders/:id/refund',
    {
      config,
      schema: {
        tags,
        operationId: 'requestMyRefund',
        summary: 'Ask for a refund of one of my orders',
        description:
          "A paid order of the caller, inside its guarantee period (the product's `guarantee_days`, at least 7 days from payment; CDC art. 49), reason 1–500 characters. Goes through the same asynchronous refund flow as the creator's. 400 outside the period or when the order is not paid, 409 when a refund is already requested, 404 for another buyer's order.",
        params: IdParams,
        body: RefundBody,
        response: { 201: z.object({ data: BuyerRefundOut }) },
        errors: [409],
      },
    },
    async (request, reply) => {
      const { userId } = actorOf(request)
      const refund = await withTx(deps.db, (tx) =>
        buyers.requestMyRefund(tx, deps, userId, request.params.id, request.body.reason),
      )
      return reply.code(201).send({
        data: {
          id: refund.id,
          order_id: refund.order_id,
          status: refund.status,
          created_at: refund.created_at,
        },
      })
    },
  )
}
