import { z } from 'zod'
import { withTx } from '../../kit/db.ts'
import { accountActorOf } from '../../kit/http/guard.ts'
import { listOf, PageQuery } from '../../kit/http/pagination.ts'
import { IdParams, NoContent } from '../../kit/http/schemas.ts'
import type { RouteModule } from '../../routes.ts'
import {
  CreateEndpointBody,
  DeliveryOut,
  EndpointOut,
  PatchEndpointBody,
  RetrySinceBody,
} from './schema.ts'
import * as webhooks from './service.ts'

const tags = ['webhooks']

export const webhookRoutes: RouteModule = (app, deps) => {
  app.post(
    '/api/v1/webhooks',
    {
      config: { guard: { account: 'write:webhooks' } },
      schema: {
        tags,
        operationId: 'createWebhook',
        summary: 'Create a webhook endpoint',
        description:
          'Creates an endpoint. The signing `secret` is returned only here, outside `data`.',
        body: CreateEndpointBody,
        response: { 201: z.object({ data: EndpointOut, secret: z.string() }) },
      },
    },
    async (request, reply) => {
      const actor = accountActorOf(request)
      await webhooks.assertDeliverableUrl(request.body.url, deps.config.allowHttpWebhooks)
      const { endpoint, secret } = await withTx(deps.db, (tx) =>
        webhooks.createEndpoint(tx, deps, { accountId: actor.accountId, ...request.body }),
      )
      return reply.code(201).send({ data: endpoint, secret })
    },
  )

  app.get(
    '/api/v1/webhooks',
    {
      config: { guard: { account: 'read:webhooks' } },
      schema: {
        tags,
        operationId: 'listWebhooks',
        summary: 'List webhook endpoints',
        querystring: PageQuery,
        response: { 200: listOf(EndpointOut) },
      },
    },
    async (request) => {
      const actor = accountActorOf(request)
      return webhooks.listEndpoints(deps.db, actor.accountId, request.query)
    },
  )

  app.get(
    '/api/v1/webhooks/:id',
    {
      config: { guard: { account: 'read:webhooks' } },
      schema: {
        tags,
        operationId: 'getWebhook',
        summary: 'Get a webhook endpoint',
        params: IdParams,
        response: { 200: z.object({ data: EndpointOut }) },
      },
    },
    async (request) => {
      const actor = accountActorOf(request)
      return { data: await webhooks.getEndpoint(deps.db, actor.accountId, request.params.id) }
    },
  )

  app.patch(
    '/api/v1/webhooks/:id',
    {
      config: { guard: { account: 'write:webhooks' } },
      schema: {
        tags,
        operationId: 'updateWebhook',
        summary: 'Update a webhook endpoint',
        description: 'URL, events or `is_active`; turning an endpoint back on replays nothing.',
        params: IdParams,
        body: PatchEndpointBody,
        response: { 200: z.object({ data: EndpointOut }) },
      },
    },
    async (request) => {
      const actor = accountActorOf(request)
      const { url } = request.body
      if (url !== undefined) {
        await webhooks.assertDeliverableUrl(url, deps.config.allowHttpWebhooks)
      }
      const data = await withTx(deps.db, (tx) =>
        webhooks.patchEndpoint(tx, deps, actor.accountId, request.params.id, request.body),
      )
      return { data }
    },
  )

  app.post(
    '/api/v1/webhooks/:id/rotate-secret',
    {
      config: { guard: { account: 'write:webhooks' } },
      schema: {
        tags,
        operationId: 'rotateWebhookSecret',
        summary: 'Rotate the signing secret',
        description:
          'A new signing secret, shown once. The old one keeps signing beside it for 24 h (both `v1,` entries in `webhook-signature`; `x-service-signature` uses the new one).',
        params: IdParams,
        response: { 200: z.object({ data: EndpointOut, secret: z.string() }) },
      },
    },
    async (request) => {
      const actor = accountActorOf(request)
      const { endpoint, secret } = await withTx(deps.db, (tx) =>
        webhooks.rotateSecret(tx, deps, actor.accountId, request.params.id),
      )
      return { data: endpoint, secret }
    },
  )

  app.post(
    '/api/v1/webhooks/:id/test',
    {
      config: { guard: { account: 'write:webhooks' } },
      schema: {
        tags,
        operationId: 'sendWebhookTest',
        summary: 'Send a test event',
        description: 'Queues a `webhook.test` event for this endpoint only.',
        params: IdParams,
        response: {
          202: z.object({ data: z.object({ event_id: z.string(), delivery_id: z.string() }) }),
        },
      },
    },
    async (request, reply) => {
      const actor = accountActorOf(request)
      const data = await withTx(deps.db, (tx) =>
        webhooks.sendTestEvent(tx, deps, actor.accountId, request.params.id),
      )
      return reply.code(202).send({ data })
    },
  )

  app.post(
    '/api/v1/webhooks/:id/retry',
    {
      config: { guard: { account: 'write:webhooks' } },
      schema: {
        tags,
        operationId: 'retryWebhookDeliveries',
        summary: 'Retry failed deliveries since a time',
        description:
          'Gives every failed delivery of the endpoint created since `since` one more attempt.',
        params: IdParams,
        body: RetrySinceBody,
        response: { 202: z.object({ data: z.object({ retried: z.number() }) }) },
      },
    },
    async (request, reply) => {
      const actor = accountActorOf(request)
      const data = await withTx(deps.db, (tx) =>
        webhooks.retryFailedSince(
          tx,
          deps,
          actor.accountId,
          request.params.id,
          new Date(request.body.since),
        ),
      )
      return reply.code(202).send({ data })
    },
  )

  app.post(
    '/api/v1/webhook-deliveries/:id/retry',
    {
      config: { guard: { account: 'write:webhooks' } },
      schema: {
        tags,
        operationId: 'retryWebhookDelivery',
        summary: 'Retry a delivery',
        description: 'Gives one failed delivery one more attempt, now.',
        params: IdParams,
        response: {
          202: z.object({ data: z.object({ id: z.string(), status: z.literal('pending') }) }),
        },
      },
    },
    async (request, reply) => {
      const actor = accountActorOf(request)
      const data = await withTx(deps.db, (tx) =>
        webhooks.retryDelivery(tx, deps, actor.accountId, request.params.id),
      )
      return reply.code(202).send({ data })
    },
  )

  app.delete(
    '/api/v1/webhooks/:id',
    {
      config: { guard: { account: 'write:webhooks' } },
      schema: {
        tags,
        operationId: 'deleteWebhook',
        summary: 'Delete a webhook endpoint',
        params: IdParams,
        response: { 204: NoContent },
      },
    },
    async (request, reply) => {
      const actor = accountActorOf(request)
      await withTx(deps.db, (tx) =>
        webhooks.deleteEndpoint(tx, deps, actor.accountId, request.params.id),
      )
      return reply.code(204).send(null)
    },
  )

  app.get(
    '/api/v1/webhooks/:id/deliveries',
    {
      config: { guard: { account: 'read:webhooks' } },
      schema: {
        tags,
        operationId: 'listWebhookDeliveries',
        summary: "An endpoint's delivery log",
        description: 'Each delivery with its attempts (status code, duration, error).',
        params: IdParams,
        querystring: PageQuery,
        response: { 200: listOf(DeliveryOut) },
      },
    },
    async (request) => {
      const actor = accountActorOf(request)
      return webhooks.listDeliveries(deps.db, actor.accountId, request.params.id, request.query)
    },
  )
}
