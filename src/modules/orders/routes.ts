import { z } from 'zod'
import { requireAccount } from '../../kit/http/auth.ts'
import { listOf } from '../../kit/http/pagination.ts'
import { IdParams } from '../../kit/http/schemas.ts'
import type { RouteModule } from '../../routes.ts'
import { OrderListQuery, OrderOut } from './schema.ts'
import * as orders from './service.ts'

const tags = ['orders']

export const orderRoutes: RouteModule = (app, deps) => {
  app.get(
    '/api/v1/orders',
    { schema: { tags, querystring: OrderListQuery, response: { 200: listOf(OrderOut) } } },
    async (request) => {
      const actor = await requireAccount(request, 'read:orders')
      return orders.listOrders(deps.db, actor.accountId, request.query)
    },
  )

  app.get(
    '/api/v1/orders/:id',
    { schema: { tags, params: IdParams, response: { 200: z.object({ data: OrderOut }) } } },
    async (request) => {
      const actor = await requireAccount(request, 'read:orders')
      return { data: await orders.getOrder(deps.db, actor.accountId, request.params.id) }
    },
  )
}
