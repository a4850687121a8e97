import { z } from 'zod'
import { withTx } from '../../kit/db.ts'
import { requireAccount } from '../../kit/http/auth.ts'
import { listOf, PageQuery } from '../../kit/http/pagination.ts'
import { IdParams } from '../../kit/http/schemas.ts'
import type { RouteModule } from '../../routes.ts'
import { AccessOut, MemberOut, RevokeBody, RevokeParams } from './schema.ts'
import * as access from './service.ts'

const tags = ['members']

export const accessRoutes: RouteModule = (app, deps) => {
  app.get(
    '/api/v1/members',
    { schema: { tags, querystring: PageQuery, response: { 200: listOf(MemberOut) } } },
    async (request) => {
      const actor = await requireAccount(request, 'read:members')
      return access.listMembers(deps.db, actor.accountId, request.query)
    },
  )

  app.get(
    '/api/v1/members/:id',
    { schema: { tags, params: IdParams, response: { 200: z.object({ data: MemberOut }) } } },
    async (request) => {
      const actor = await requireAccount(request, 'read:members')
      return { data: await access.getMember(deps.db, actor.accountId, request.params.id) }
    },
  )

  app.post(
    '/api/v1/members/:id/access/:access_id/revoke',
    {
      schema: {
        tags,
        params: RevokeParams,
        body: RevokeBody,
        response: { 200: z.object({ data: AccessOut }) },
      },
    },
    async (request) => {
      const actor = await requireAccount(request, 'write:members')
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
