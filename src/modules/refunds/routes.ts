import { z } from 'zod'
import { withTx } from '../../kit/db.ts'
import { accountActorOf } from '../../kit/http/guard.ts'
import { listOf } from '../../kit/http/pagination.ts'
import { IdParams } from '../../kit/http/schemas.ts'
import type { RouteModule } from '../../routes.ts'
import {
  AdminRefundListQuery,
  AdminRefundOut,
  RefundBody,
  RefundListQuery,
  RefundOut,
  SettleRefundBody,
} from './schema.ts'
import { getRefund, listAllRefunds, listRefunds, requestRefund, settleRefund } from './service.ts'

const tags = ['refunds']
const One = z.object({ data: RefundOut })

export const refundRoutes: RouteModule = (app, deps) => {
  app.post(
    '/api/v1/orders/:id/refund',
    {
      config: { guard: { account: 'refunds:create' } },
      schema: {
        tags,
        operationId: 'requestRefund',
        summary: 'Refund an order',
        description:
          'Requests a full refund of a paid order (scope refunds:create). 409 `Refund already requested` is checked first, then 400 `Order is not paid`; 400 `Saldo insuficiente para reembolsar este pedido` when the account cannot cover its part. Processed asynchronously; `refund.requested` fires at creation and at each status change.',
        params: IdParams,
        body: RefundBody,
        response: { 201: One },
      },
    },
    async (request, reply) => {
      const actor = accountActorOf(request)
      const data = await withTx(deps.db, (tx) =>
        requestRefund(tx, deps, actor, request.params.id, request.body.reason),
      )
      return reply.code(201).send({ data })
    },
  )

  app.get(
    '/api/v1/refunds',
    {
      config: { guard: { account: 'read:refunds' } },
      schema: {
        tags,
        operationId: 'listRefunds',
        summary: 'List refunds',
        description: 'Refunds of the account, newest first (scope read:refunds).',
        querystring: RefundListQuery,
        response: { 200: listOf(RefundOut) },
      },
    },
    async (request) => {
      const actor = accountActorOf(request)
      return listRefunds(deps.db, actor.accountId, request.query)
    },
  )

  app.get(
    '/api/v1/refunds/:id',
    {
      config: { guard: { account: 'read:refunds' } },
      schema: {
        tags,
        operationId: 'getRefund',
        summary: 'Get a refund',
        params: IdParams,
        response: { 200: One },
      },
    },
    async (request) => {
      const actor = accountActorOf(request)
      return { data: await getRefund(deps.db, actor.accountId, request.params.id) }
    },
  )

  app.get(
    '/api/admin/refunds',
    {
      config: { guard: 'admin' },
      schema: {
        tags: ['admin'],
        operationId: 'adminListRefunds',
        summary: 'List refunds of every account (admin)',
        description:
          "Every account's refunds, newest first (platform admin). `needs_attention=true`: the ones a person must look at — outcome still unknown after many tries, or the buyer paid twice (refund and chargeback).",
        querystring: AdminRefundListQuery,
        response: { 200: listOf(AdminRefundOut) },
      },
    },
    async (request) => listAllRefunds(deps.db, request.query),
  )

  app.post(
    '/api/admin/refunds/:id/settle',
    {
      config: { guard: 'admin' },
      schema: {
        tags: ['admin'],
        operationId: 'adminSettleRefund',
        summary: 'Settle a refund by hand (admin)',
        errors: [409],
        description:
          'Settles a pending refund as the gateway shows it (platform admin): `completed` pays it out, `failed` gives the money back (the note becomes the reason). 409 once it is no longer pending.',
        params: IdParams,
        body: SettleRefundBody,
        response: { 200: z.object({ data: AdminRefundOut }) },
      },
    },
    async (request) => {
      const data = await withTx(deps.db, (tx) =>
        settleRefund(tx, deps, { refundId: request.params.id, ...request.body }),
      )
      return { data }
    },
  )
}
