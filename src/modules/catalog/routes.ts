import { z } from 'zod'
import { withTx } from '../../kit/db.ts'
import { requireAccount } from '../../kit/http/auth.ts'
import { listOf, PageQuery } from '../../kit/http/pagination.ts'
import { IdParams } from '../../kit/http/schemas.ts'
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
    { schema: { tags, body: CreateProductBody, response: { 201: One } } },
    async (request, reply) => {
      const actor = await requireAccount(request, 'write:products')
      const data = await withTx(deps.db, (tx) =>
        catalog.createProduct(tx, deps, actor.accountId, request.body),
      )
      return reply.code(201).send({ data })
    },
  )

  app.get(
    '/api/v1/products',
    { schema: { tags, querystring: PageQuery, response: { 200: listOf(ProductOut) } } },
    async (request) => {
      const actor = await requireAccount(request, 'read:products')
      return catalog.listProducts(deps.db, deps, actor.accountId, request.query)
    },
  )

  app.get(
    '/api/v1/products/:id',
    { schema: { tags, params: IdParams, response: { 200: One } } },
    async (request) => {
      const actor = await requireAccount(request, 'read:products')
      return { data: await catalog.getProduct(deps.db, deps, actor.accountId, request.params.id) }
    },
  )

  app.patch(
    '/api/v1/products/:id',
    { schema: { tags, params: IdParams, body: PatchProductBody, response: { 200: One } } },
    async (request) => {
      const actor = await requireAccount(request, 'write:products')
      const data = await withTx(deps.db, (tx) =>
        catalog.patchProduct(tx, deps, actor.accountId, request.params.id, request.body),
      )
      return { data }
    },
  )

  app.delete(
    '/api/v1/products/:id',
    {
      schema: {
        tags,
        description:
          'Deletes a product without orders; a product with orders is archived instead (200).',
        params: IdParams,
      },
    },
    async (request, reply) => {
      const actor = await requireAccount(request, 'write:products')
      const outcome = await withTx(deps.db, (tx) =>
        catalog.deleteProduct(tx, deps, actor.accountId, request.params.id),
      )
      if (outcome === 'deleted') return reply.code(204).send()
      return { data: await catalog.getProduct(deps.db, deps, actor.accountId, request.params.id) }
    },
  )

  app.post(
    '/api/v1/products/:id/coupons',
    {
      schema: {
        tags,
        params: IdParams,
        body: CreateCouponBody,
        response: { 201: z.object({ data: CouponOut }) },
      },
    },
    async (request, reply) => {
      const actor = await requireAccount(request, 'write:products')
      const data = await withTx(deps.db, (tx) =>
        createCoupon(tx, deps, actor.accountId, request.params.id, request.body),
      )
      return reply.code(201).send({ data })
    },
  )

  app.get(
    '/api/v1/products/:id/coupons',
    {
      schema: { tags, params: IdParams, response: { 200: z.object({ data: z.array(CouponOut) }) } },
    },
    async (request) => {
      const actor = await requireAccount(request, 'read:products')
      return { data: await listCoupons(deps.db, actor.accountId, request.params.id) }
    },
  )
}
