import { z } from 'zod'
import { withTx } from '../../kit/db.ts'
import { accountActorOf } from '../../kit/http/guard.ts'
import { listOf, PageQuery } from '../../kit/http/pagination.ts'
import { IdParams } from '../../kit/http/schemas.ts'
import type { RouteModule } from '../../routes.ts'
import { CoproducerOut, EnrollCoproducerBody } from './schema.ts'
import { enrollCoproducer, listCoproducers } from './service.ts'

const tags = ['coproducers']

export const coproducerRoutes: RouteModule = (app, deps) => {
  app.post(
    '/api/v1/products/:id/coproducers',
    {
      config: { guard: { account: 'write:products' } },
      schema: {
        tags,
        operationId: 'enrollCoproducer',
        summary: 'Enrol a co-producer',
        description:
          "Enrols a user (by e-mail; invited when new) as a co-producer taking split_percent of each sale after the affiliate's commission; the product's splits add up to at most 100. Scope write:products.",
        params: IdParams,
        body: EnrollCoproducerBody,
        response: { 201: z.object({ data: CoproducerOut }) },
      },
    },
    async (request, reply) => {
      const actor = accountActorOf(request)
      const data = await withTx(deps.db, (tx) =>
        enrollCoproducer(tx, deps, actor, request.params.id, request.body),
      )
      return reply.code(201).send({ data })
    },
  )

  app.get(
    '/api/v1/products/:id/coproducers',
    {
      config: { guard: { account: 'read:products' } },
      schema: {
        tags,
        operationId: 'listCoproducers',
        summary: "List a product's co-producers",
        description: 'The co-producers of a product, newest first. Scope read:products.',
        params: IdParams,
        querystring: PageQuery,
        response: { 200: listOf(CoproducerOut) },
      },
    },
    async (request) => {
      const actor = accountActorOf(request)
      return listCoproducers(deps.db, deps, actor.accountId, request.params.id, request.query)
    },
  )
}
