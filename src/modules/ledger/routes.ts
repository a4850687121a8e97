import { accountActorOf, actorOf } from '../../kit/http/guard.ts'
import type { RouteModule } from '../../routes.ts'
import { affiliateBalance, coproducerBalance, creatorBalance } from './balances.ts'
import {
  AffiliateBalanceOut,
  BalanceQuery,
  CoproducerBalanceOut,
  CreatorBalanceOut,
} from './schema.ts'

const tags = ['balances']
// Payout endpoints answer errors as { success: false, error } (SPEC §1).
const payoutErrors = true

export const ledgerRoutes: RouteModule = (app, deps) => {
  app.get(
    '/api/balance',
    {
      config: { guard: { account: 'read:payouts', from: 'query.tenant_id' }, payoutErrors },
      schema: {
        tags,
        operationId: 'getCreatorBalance',
        summary: "An account's creator balance",
        description:
          'The creator balance of an account (bare object, BRL): available = paid_total − refunded_total − withdrawn_total − coproducer_owed − affiliate_owed. Session or key with read:payouts.',
        querystring: BalanceQuery,
        response: { 200: CreatorBalanceOut },
      },
    },
    async (request) => {
      const actor = accountActorOf(request)
      return creatorBalance(deps.db, actor.accountId)
    },
  )

  app.get(
    '/api/coproducers/balance',
    {
      config: { guard: { scope: 'read:payouts' }, payoutErrors },
      schema: {
        tags,
        operationId: 'getCoproducerBalance',
        summary: "The caller's co-producer balance",
        description:
          "The caller's co-producer balance over all splits: available = earned_total − refunded_total − withdrawn.",
        response: { 200: CoproducerBalanceOut },
      },
    },
    async (request) => {
      const actor = actorOf(request)
      return coproducerBalance(deps.db, actor.userId)
    },
  )

  app.get(
    '/api/affiliates/balance',
    {
      config: { guard: { scope: 'read:payouts' }, payoutErrors },
      schema: {
        tags,
        operationId: 'getAffiliateBalance',
        summary: "The caller's affiliate balance",
        description:
          "The caller's affiliate balance: available = paid_total − withdrawn; pending_count counts commissions of unpaid orders.",
        response: { 200: AffiliateBalanceOut },
      },
    },
    async (request) => {
      const actor = actorOf(request)
      return affiliateBalance(deps.db, actor.userId)
    },
  )
}
