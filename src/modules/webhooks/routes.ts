import { z } from 'zod'
import { withTx } from '../../kit/db.ts'
import { requireAccount } from '../../kit/http/auth.ts'
import { listOf, PageQuery } from '../../kit/http/pagination.ts'
import { IdParams } from '../../kit/http/schemas.ts'
import type { RouteModule } from '../../routes.ts'
import { CreateEndpointBody, DeliveryOut, EndpointOut } from './schema.ts'
import * as webhooks from './service.ts'

const tags = ['webhooks']

export const webhookRoutes: RouteModule = (app, deps) => {
  app.post(
    '/api/v1/webhooks',
    {
      schema: {
        tags,
        description:
          'Creates an endpoint. The signing `secret` is returned only here, outside `data`.',
        body: CreateEndpointBody,
        response: { 201: z.object({ data: EndpointOut, secret: z.string() }) },
      },
    },
    async (request, reply) => {
      const actor = await requireAccount(request, 'write:webhooks')
      await webhooks.assertDeliverableUrl(request.body.url, deps.config.allowHttpWebhooks)
      const { endpoint, secret } = await withTx(deps.db, (tx) =>
        webhooks.createEndpoint(tx, deps, { accountId: actor.accountId, ...request.body }),
      )
      return reply.code(201).send({ data: endpoint, secret })
    },
  )

  app.get(
    '/api/v1/webhooks',
    { schema: { tags, querystring: PageQuery, response: { 200: listOf(EndpointOut) } } },
    async (request) => {
      const actor = await requireAccount(request, 'read:webhooks')
      return webhooks.listEndpoints(deps.db, actor.accountId, request.query)
    },
  )

  app.get(
    '/api/v1/webhooks/:id',
    { schema: { tags, params: IdParams, response: { 200: z.object({ data: EndpointOut }) } } },
    async (request) => {
      const actor = await requireAccount(request, 'read:webhooks')
      return { data: await webhooks.getEndpoint(deps.db, actor.accountId, request.params.id) }
    },
  )

  app.delete(
    '/api/v1/webhooks/:id',
    { schema: { tags, params: IdParams } },
    async (request, reply) => {
      const actor = await requireAccount(request, 'write:webhooks')
      await withTx(deps.db, (tx) =>
        webhooks.deleteEndpoint(tx, deps, actor.accountId, request.params.id),
      )
      return reply.code(204).send()
    },
  )

  app.get(
    '/api/v1/webhooks/:id/deliveries',
    {
      schema: {
        tags,
        params: IdParams,
        querystring: PageQuery,
        response: { 200: listOf(DeliveryOut) },
      },
    },
    async (request) => {
      const actor = await requireAccount(request, 'read:webhooks')
      return webhooks.listDeliveries(deps.db, actor.accountId, request.params.id, request.query)
    },
  )
}
