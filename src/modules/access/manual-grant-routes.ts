import { z } from 'zod'
import { withTx } from '../../kit/db.ts'
import { accountActorOf } from '../../kit/http/guard.ts'
import type { RouteModule } from '../../routes.ts'
import { describeUser } from '../accounts/service.ts'
import { grantByHand } from './manual-grant.ts'
import { MemberOut } from './schema.ts'

const GrantBody = z.object({
  email: z.email('Informe um e-mail válido').trim().toLowerCase().max(254),
  name: z.string().trim().max(200).optional(),
  product_id: z.uuid(),
})

export const manualGrantRoutes: RouteModule = (app, deps) => {
  app.post(
    '/api/v1/members/grant',
    {
      config: { guard: { account: 'write:members' } },
      schema: {
        tags: ['members'],
        operationId: 'grantMemberAccess',
        summary: 'Grant access by hand',
        description:
          'Gives a product to a person without a purchase: creates the user if new (with a log-in link by e-mail), enrols them as a member and grants the access (no order: `order_id` null), with `member.enrolled` and `access.granted`. 409 when the person already has active access to the product.',
        body: GrantBody,
        response: { 201: z.object({ data: MemberOut }) },
      },
    },
    async (request, reply) => {
      const actor = accountActorOf(request)
      const me = await describeUser(deps.db, actor.userId)
      const name = me.accounts.find((a) => a.id === actor.accountId)?.name ?? 'Vitrine'
      const data = await withTx(deps.db, (tx) =>
        grantByHand(tx, deps, { id: actor.accountId, name }, request.body),
      )
      return reply.code(201).send({ data })
    },
  )
}
