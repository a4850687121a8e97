import { z } from 'zod'
import { accountActorOf } from '../../kit/http/guard.ts'
import { listOf } from '../../kit/http/pagination.ts'
import { IdParams } from '../../kit/http/schemas.ts'
import type { RouteModule } from '../../routes.ts'
import { OrderListQuery, OrderOut } from './schema.ts'
import * as orders from './service.ts'

const tags = ['orders']

export const orderRoutes: RouteModule = (app, deps) => {
  app.get(
    '/api/v1/orders',
    {
      config: { guard: { account: 'read:orders' } },
      schema: {
        tags,
        operationId: 'listOrders',
        summary: 'List orders',
        querystring: OrderListQuery,
        response: { 200: listOf(OrderOut) },
      },
    },
    async (request) => {
      const actor = accountActorOf(request)
      return orders.listOrders(deps.db, actor.accountId, request.query)
    },
  )

  app.get(
    '/api/v1/orders/:id',
    {
      config: { guard: { account: 'read:orders' } },
      schema: {
        tags,
        operationId: 'getOrder',
        summary: 'Get an order',
        params: IdParams,
        response: { 200: z.object({ data: OrderOut }) },
      },
    },
    async (request) => {
      const actor = accountActorOf(request)
      return { data: await orders.getOrder(deps.db, actor.accountId, request.params.id) }
    },
  )
}
