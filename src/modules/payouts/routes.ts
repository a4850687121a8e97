import { withTx } from '../../kit/db.ts'
import { actorOf, inAccount } from '../../kit/http/guard.ts'
import { listOf } from '../../kit/http/pagination.ts'
import type { RouteModule } from '../../routes.ts'
import { profileOf, setPixKey } from './pix-keys.ts'
import {
  CreatorWithdrawalBody,
  PartnerWithdrawalBody,
  PixKeyBody,
  PixKeySetOut,
  ProfileOut,
  WithdrawalCreatedOut,
  WithdrawalListQuery,
  WithdrawalOut,
} from './schema.ts'
import {
  checkedAmountCents,
  listWithdrawals,
  requestCreatorWithdrawal,
  requestWithdrawal,
} from './withdrawals.ts'

// Payout and profile endpoints answer errors as { success: false, error } (SPEC §1).
const payoutErrors = true

const CHECKS =
  'Checks, in order: amount ≥ 20.00 (400), then the PIX key — none 400 `Cadastre uma chave Pix antes de solicitar saque`, pending 403 `Sua chave Pix está aguardando verificação`, rejected 403 `Sua chave Pix foi rejeitada: <reason>` — then 409 `Você já tem um saque pendente`, then 400 `Saldo insuficiente`.'

export const payoutRoutes: RouteModule = (app, deps) => {
  // PATCH is the seed's method; POST is accepted as an alias (the seed's text names it too).
  for (const [method, operationId, summary] of [
    ['PATCH', 'setPixKey', 'Set the PIX key'],
    ['POST', 'setPixKeyByPost', 'Set the PIX key (POST alias of PATCH)'],
  ] as const) {
    app.route({
      method,
      url: '/api/profile/pix',
      config: { guard: { scope: 'write:profile' }, payoutErrors },
      schema: {
        tags: ['profile'],
        operationId,
        summary,
        description:
          "Sets the caller's PIX key (scope write:profile), validated for its type. A changed key waits for an admin's verification again (pix_verified false); the same key again changes nothing.",
        body: PixKeyBody,
        response: { 200: PixKeySetOut },
      },
      handler: async (request) => {
        const actor = actorOf(request)
        return withTx(deps.db, (tx) => setPixKey(tx, deps, actor.userId, request.body))
      },
    })
  }

  app.get(
    '/api/profile',
    {
      config: { guard: 'user', payoutErrors },
      schema: {
        tags: ['profile'],
        operationId: 'getProfile',
        summary: "The caller's profile",
        description: "The caller's profile with the PIX key masked and its verification status.",
        response: { 200: ProfileOut },
      },
    },
    async (request) => {
      const actor = actorOf(request)
      return profileOf(deps.db, actor.userId)
    },
  )

  app.post(
    '/api/withdrawals',
    {
      config: { guard: { scope: 'write:payouts' }, payoutErrors },
      schema: {
        tags: ['withdrawals'],
        operationId: 'requestWithdrawal',
        summary: "Withdraw from an account's balance",
        errors: [404],
        description: `A creator's withdrawal from an account's balance (scope write:payouts; only the account's owner, 404 otherwise). ${CHECKS}`,
        body: CreatorWithdrawalBody,
        response: { 201: WithdrawalCreatedOut },
      },
    },
    async (request, reply) => {
      const amountCents = checkedAmountCents(request.body.amount)
      const actor = inAccount(request, request.body.tenant_id)
      const created = await withTx(deps.db, (tx) =>
        requestCreatorWithdrawal(tx, deps, { ...actor, amountCents }),
      )
      return reply.code(201).send(created)
    },
  )

  for (const role of ['coproducer', 'affiliate'] as const) {
    app.post(
      `/api/${role}s/withdraw`,
      {
        config: { guard: { scope: 'write:payouts' }, payoutErrors },
        schema: {
          tags: ['withdrawals'],
          operationId: `request${role === 'coproducer' ? 'Coproducer' : 'Affiliate'}Withdrawal`,
          summary: `Withdraw ${role} earnings`,
          description: `A ${role}'s withdrawal from their own balance over all products (scope write:payouts). ${CHECKS}`,
          body: PartnerWithdrawalBody,
          response: { 200: WithdrawalCreatedOut },
        },
      },
      async (request) => {
        const actor = actorOf(request)
        const amountCents = checkedAmountCents(request.body.amount)
        return withTx(deps.db, (tx) =>
          requestWithdrawal(tx, deps, {
            holder: { kind: role, userId: actor.userId },
            userId: actor.userId,
            amountCents,
          }),
        )
      },
    )
  }

  app.get(
    '/api/withdrawals',
    {
      config: { guard: { scope: 'read:payouts' }, payoutErrors },
      schema: {
        tags: ['withdrawals'],
        operationId: 'listWithdrawals',
        summary: "List the caller's withdrawals",
        description:
          "The caller's own withdrawals (every role), newest first (scope read:payouts).",
        querystring: WithdrawalListQuery,
        response: { 200: listOf(WithdrawalOut) },
      },
    },
    async (request) => {
      const actor = actorOf(request)
      return listWithdrawals(deps.db, { userId: actor.userId }, request.query)
    },
  )
}
