import { z } from 'zod'
import { withTx } from '../../kit/db.ts'
import { accountActorOf } from '../../kit/http/guard.ts'
import { listOf, PageQuery } from '../../kit/http/pagination.ts'
import { IdParams, NoContent } from '../../kit/http/schemas.ts'
import type { RouteModule } from '../../routes.ts'
import { createCoupon, listCoupons } from './coupons.ts'
import {
  CouponOut,
  CreateCouponBody,
  CreateProductBody,
  PatchProductBody,
  ProductOut,
} from './schema.ts'
import * as catalog from './service.ts'

const tags = ['products']
const One = z.object({ data: ProductOut })

export const catalogRoutes: RouteModule = (app, deps) => {
  app.post(
    '/api/v1/products',
    {
      config: { guard: { account: 'write:products' } },
      schema: {
        tags,
        operationId: 'createProduct',
        summary: 'Create a product',
        description: 'With at least one plan. The slug is unique platform-wide (409).',
        body: CreateProductBody,
        response: { 201: One },
      },
    },
    async (request, reply) => {
      const actor = accountActorOf(request)
      const data = await withTx(deps.db, (tx) =>
        catalog.createProduct(tx, deps, actor.accountId, request.body),
      )
      return reply.code(201).send({ data })
    },
  )

  app.get(
    '/api/v1/products',
    {
      config: { guard: { account: 'read:products' } },
      schema: {
        tags,
        operationId: 'listProducts',
        summary: 'List products',
        querystring: PageQuery,
        response: { 200: listOf(ProductOut) },
      },
    },
    async (request) => {
      const actor = accountActorOf(request)
      return catalog.listProducts(deps.db, deps, actor.accountId, request.query)
    },
  )

  app.get(
    '/api/v1/products/:id',
    {
      config: { guard: { account: 'read:products' } },
      schema: {
        tags,
        operationId: 'getProduct',
        summary: 'Get a product',
        params: IdParams,
        response: { 200: One },
      },
    },
    async (request) => {
      const actor = accountActorOf(request)
      return { data: await catalog.getProduct(deps.db, deps, actor.accountId, request.params.id) }
    },
  )

  app.patch(
    '/api/v1/products/:id',
    {
      config: { guard: { account: 'write:products' } },
      schema: {
        tags,
        operationId: 'updateProduct',
        summary: 'Update a product',
        description:
          '`plans` is the full list: plans with `id` are updated, new ones added, omitted ones archived.',
        params: IdParams,
        body: PatchProductBody,
        response: { 200: One },
        errors: [409],
      },
    },
    async (request) => {
      const actor = accountActorOf(request)
      const data = await withTx(deps.db, (tx) =>
        catalog.patchProduct(tx, deps, actor.accountId, request.params.id, request.body),
      )
      return { data }
    },
  )

  app.delete(
    '/api/v1/products/:id',
    {
      config: { guard: { account: 'write:products' } },
      schema: {
        tags,
        operationId: 'deleteProduct',
        summary: 'Delete or archive a product',
        description:
          'Deletes a product without orders (204); a product with orders is archived instead (200).',
        params: IdParams,
        response: { 200: One, 204: NoContent },
      },
    },
    async (request, reply) => {
      const actor = accountActorOf(request)
      const outcome = await withTx(deps.db, (tx) =>
        catalog.deleteProduct(tx, deps, actor.accountId, request.params.id),
      )
      if (outcome === 'deleted') return reply.code(204).send(null)
      return { data: await catalog.getProduct(deps.db, deps, actor.accountId, request.params.id) }
    },
  )

  app.post(
    '/api/v1/products/:id/coupons',
    {
      config: { guard: { account: 'write:products' } },
      schema: {
        tags,
        operationId: 'createCoupon',
        summary: 'Create a coupon',
        params: IdParams,
        body: CreateCouponBody,
        response: { 201: z.object({ data: CouponOut }) },
      },
    },
    async (request, reply) => {
      const actor = accountActorOf(request)
      const data = await withTx(deps.db, (tx) =>
        createCoupon(tx, deps, actor.accountId, request.params.id, request.body),
      )
      return reply.code(201).send({ data })
    },
  )

  app.get(
    '/api/v1/products/:id/coupons',
    {
      config: { guard: { account: 'read:products' } },
      schema: {
        tags,
        operationId: 'listCoupons',
        summary: "List a product's coupons",
        params: IdParams,
        response: { 200: z.object({ data: z.array(CouponOut) }) },
      },
    },
    async (request) => {
      const actor = accountActorOf(request)
      return { data: await listCoupons(deps.db, actor.accountId, request.params.id) }
    },
  )
}
