import { z } from 'zod'
import { withTx } from '../../kit/db.ts'
import { accountActorOf } from '../../kit/http/guard.ts'
import { listOf } from '../../kit/http/pagination.ts'
import { IdParams } from '../../kit/http/schemas.ts'
import type { RouteModule } from '../../routes.ts'
import { CancelBody, SubscriptionListQuery, SubscriptionOut } from './schema.ts'
import * as subscriptions from './service.ts'

const tags = ['subscriptions']

export const subscriptionRoutes: RouteModule = (app, deps) => {
  app.get(
    '/api/v1/subscriptions',
    {
      config: { guard: { account: 'read:subscriptions' } },
      schema: {
        tags,
        operationId: 'listSubscriptions',
        summary: 'List subscriptions',
        querystring: SubscriptionListQuery,
        response: { 200: listOf(SubscriptionOut) },
      },
    },
    async (request) => {
      const actor = accountActorOf(request)
      return subscriptions.listSubscriptions(deps.db, actor.accountId, request.query)
    },
  )

  app.get(
    '/api/v1/subscriptions/:id',
    {
      config: { guard: { account: 'read:subscriptions' } },
      schema: {
        tags,
        operationId: 'getSubscription',
        summary: 'Get a subscription',
        params: IdParams,
        response: { 200: z.object({ data: SubscriptionOut }) },
      },
    },
    async (request) => {
      const actor = accountActorOf(request)
      return {
        data: await subscriptions.getSubscription(deps.db, actor.accountId, request.params.id),
      }
    },
  )

  app.post(
    '/api/v1/subscriptions/:id/cancel',
    {
      config: { guard: { account: 'write:subscriptions' } },
      schema: {
        tags,
        operationId: 'cancelSubscription',
        summary: 'Cancel a subscription',
        description:
          'Cancels at the end of the paid period (no renewal is charged; access lasts until then), or now with `immediately`.',
        params: IdParams,
        body: CancelBody,
        response: { 200: z.object({ data: SubscriptionOut }) },
      },
    },
    async (request) => {
      const actor = accountActorOf(request)
      const data = await withTx(deps.db, (tx) =>
        subscriptions.cancelSubscription(tx, deps, actor.accountId, request.params.id, {
          immediately: request.body?.immediately ?? false,
        }),
      )
      return { data }
    },
  )
}
