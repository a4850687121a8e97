import { z } from 'zod'
import { withTx } from '../../kit/db.ts'
import { accountActorOf } from '../../kit/http/guard.ts'
import { listOf, PageQuery } from '../../kit/http/pagination.ts'
import { IdParams } from '../../kit/http/schemas.ts'
import type { RouteModule } from '../../routes.ts'
import { AffiliateOut, AffiliateParams, EnrollAffiliateBody, PatchAffiliateBody } from './schema.ts'
import { enrollAffiliate, listAffiliates, setCommission } from './service.ts'

const tags = ['affiliates']
const One = z.object({ data: AffiliateOut })

export const affiliateRoutes: RouteModule = (app, deps) => {
  app.post(
    '/api/v1/products/:id/affiliates',
    {
      config: { guard: { account: 'write:products' } },
      schema: {
        tags,
        operationId: 'enrollAffiliate',
        summary: 'Enrol an affiliate',
        description:
          'Enrols a user (by e-mail; invited when new) as an affiliate of the product, with a unique code. Scope write:products.',
        params: IdParams,
        body: EnrollAffiliateBody,
        response: { 201: One },
      },
    },
    async (request, reply) => {
      const actor = accountActorOf(request)
      const data = await withTx(deps.db, (tx) =>
        enrollAffiliate(tx, deps, actor, request.params.id, request.body),
      )
      return reply.code(201).send({ data })
    },
  )

  app.get(
    '/api/v1/products/:id/affiliates',
    {
      config: { guard: { account: 'read:products' } },
      schema: {
        tags,
        operationId: 'listAffiliates',
        summary: "List a product's affiliates",
        description: 'The affiliates of a product, newest first. Scope read:products.',
        params: IdParams,
        querystring: PageQuery,
        response: { 200: listOf(AffiliateOut) },
      },
    },
    async (request) => {
      const actor = accountActorOf(request)
      return listAffiliates(deps.db, deps, actor.accountId, request.params.id, request.query)
    },
  )

  app.patch(
    '/api/v1/products/:id/affiliates/:affiliate_id',
    {
      config: { guard: { account: 'write:products' } },
      schema: {
        tags,
        operationId: 'updateAffiliate',
        summary: "Change an affiliate's commission",
        description:
          'Changes the commission. Orders already created keep the percentage they were created with. Scope write:products.',
        params: AffiliateParams,
        body: PatchAffiliateBody,
        response: { 200: One },
      },
    },
    async (request) => {
      const actor = accountActorOf(request)
      const { id, affiliate_id } = request.params
      const data = await withTx(deps.db, (tx) =>
        setCommission(tx, deps, actor.accountId, id, affiliate_id, request.body.commission_percent),
      )
      return { data }
    },
  )
}
