import { z } from 'zod'
import { withTx } from '../../kit/db.ts'
import { accountActorOf } from '../../kit/http/guard.ts'
import { listOf, PageQuery } from '../../kit/http/pagination.ts'
import { IdParams } from '../../kit/http/schemas.ts'
import type { RouteModule } from '../../routes.ts'
import { AccessOut, MemberOut, RevokeBody, RevokeParams } from './schema.ts'
import * as access from './service.ts'

const tags = ['members']

export const accessRoutes: RouteModule = (app, deps) => {
  app.get(
    '/api/v1/members',
    {
      config: { guard: { account: 'read:members' } },
      schema: {
        tags,
        operationId: 'listMembers',
        summary: 'List members',
        description: 'One row per buyer, with their access to each product.',
        querystring: PageQuery,
        response: { 200: listOf(MemberOut) },
      },
    },
    async (request) => {
      const actor = accountActorOf(request)
      return access.listMembers(deps.db, actor.accountId, request.query)
    },
  )

  app.get(
    '/api/v1/members/:id',
    {
      config: { guard: { account: 'read:members' } },
      schema: {
        tags,
        operationId: 'getMember',
        summary: 'Get a member',
        params: IdParams,
        response: { 200: z.object({ data: MemberOut }) },
      },
    },
    async (request) => {
      const actor = accountActorOf(request)
      return { data: await access.getMember(deps.db, actor.accountId, request.params.id) }
    },
  )

  app.post(
    '/api/v1/members/:id/access/:access_id/revoke',
    {
      config: { guard: { account: 'write:members' } },
      schema: {
        tags,
        operationId: 'revokeMemberAccess',
        summary: "Revoke a member's access",
        params: RevokeParams,
        body: RevokeBody,
        response: { 200: z.object({ data: AccessOut }) },
      },
    },
    async (request) => {
      const actor = accountActorOf(request)
      const grant = await withTx(deps.db, (tx) =>
        access.revokeAccess(tx, deps, {
          accountId: actor.accountId,
          buyerId: request.params.id,
          accessId: request.params.access_id,
          reason: request.body?.reason ?? 'manual',
        }),
      )
      return { data: access.accessOut(grant) }
    },
  )
}
