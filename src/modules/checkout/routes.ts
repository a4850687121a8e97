import { IdParams } from '../../kit/http/schemas.ts'
import type { RouteModule } from '../../routes.ts'
import { CheckoutOut, CreateCheckoutBody, OrderStatusOut } from './schema.ts'
import { createCheckout, orderStatus } from './service.ts'

const tags = ['checkout']

export const checkoutRoutes: RouteModule = (app, deps) => {
  app.post(
    '/api/checkout/create',
    {
      schema: {
        tags,
        security: [],
        description:
          'Creates the buyer (if new), a pending order and the gateway charge. one_time products accept PIX only.',
        body: CreateCheckoutBody,
        response: { 201: CheckoutOut },
      },
    },
    async (request, reply) => reply.code(201).send(await createCheckout(deps, request.body)),
  )

  app.get(
    '/api/orders/:id/status',
    { schema: { tags, security: [], params: IdParams, response: { 200: OrderStatusOut } } },
    async (request) => orderStatus(deps, request.params.id),
  )
}
