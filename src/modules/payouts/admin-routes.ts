// The platform admin's back office API (SPEC §9): PIX keys to verify, withdrawals to approve,
// reject or pay. The admin's session or an API key of the admin user.
import { z } from 'zod'
import { withTx } from '../../kit/db.ts'
import { actorOf } from '../../kit/http/guard.ts'
import { listOf } from '../../kit/http/pagination.ts'
import { IdParams } from '../../kit/http/schemas.ts'
import type { RouteModule } from '../../routes.ts'
import { listPixKeys, reviewPixKey } from './pix-keys.ts'
import {
  AdminPixKeyOut,
  PayWithdrawalBody,
  PixKeyListQuery,
  ProfileOut,
  RejectPixKeyBody,
  RejectWithdrawalBody,
  UserIdParams,
  WithdrawalListQuery,
  WithdrawalOut,
} from './schema.ts'
import {
  approveWithdrawal,
  listWithdrawals,
  payWithdrawal,
  rejectWithdrawal,
} from './withdrawals.ts'

const config = { guard: 'admin', payoutErrors: true } as const
const tags = ['admin']
const One = z.object({ data: WithdrawalOut })
const Reviewed = ProfileOut.pick({
  pix_key: true,
  pix_key_type: true,
  pix_verified: true,
  pix_status: true,
  pix_rejection_reason: true,
}).extend({ success: z.boolean() })

export const payoutAdminRoutes: RouteModule = (app, deps) => {
  app.get(
    '/api/admin/pix-keys',
    {
      config,
      schema: {
        tags,
        operationId: 'listPixKeys',
        summary: 'List PIX keys',
        description:
          'PIX keys, most recently changed first; `status=pending` lists the ones to verify.',
        querystring: PixKeyListQuery,
        response: { 200: listOf(AdminPixKeyOut) },
      },
    },
    async (request) => listPixKeys(deps.db, request.query),
  )

  app.post(
    '/api/admin/pix-keys/:user_id/verify',
    {
      config,
      schema: {
        tags,
        operationId: 'verifyPixKey',
        summary: 'Verify a PIX key',
        params: UserIdParams,
        response: { 200: Reviewed },
      },
    },
    async (request) => {
      const admin = actorOf(request)
      return withTx(deps.db, (tx) =>
        reviewPixKey(tx, deps, {
          adminId: admin.userId,
          userId: request.params.user_id,
          verdict: 'verified',
        }),
      )
    },
  )

  app.post(
    '/api/admin/pix-keys/:user_id/reject',
    {
      config,
      schema: {
        tags,
        operationId: 'rejectPixKey',
        summary: 'Reject a PIX key',
        params: UserIdParams,
        body: RejectPixKeyBody,
        response: { 200: Reviewed },
      },
    },
    async (request) => {
      const admin = actorOf(request)
      return withTx(deps.db, (tx) =>
        reviewPixKey(tx, deps, {
          adminId: admin.userId,
          userId: request.params.user_id,
          verdict: 'rejected',
          reason: request.body.reason,
        }),
      )
    },
  )

  app.get(
    '/api/admin/withdrawals',
    {
      config,
      schema: {
        tags,
        operationId: 'listAllWithdrawals',
        summary: 'List every withdrawal',
        description: 'Every withdrawal, newest first, optionally by `status`.',
        querystring: WithdrawalListQuery,
        response: { 200: listOf(WithdrawalOut) },
      },
    },
    async (request) => listWithdrawals(deps.db, {}, request.query),
  )

  app.post(
    '/api/admin/withdrawals/:id/approve',
    {
      config,
      schema: {
        tags,
        operationId: 'approveWithdrawal',
        summary: 'Approve a withdrawal',
        description: 'pending → approved (409 from any other state).',
        params: IdParams,
        response: { 200: One },
      },
    },
    async (request) => ({
      data: await withTx(deps.db, (tx) => approveWithdrawal(tx, deps, request.params.id)),
    }),
  )

  app.post(
    '/api/admin/withdrawals/:id/reject',
    {
      config,
      schema: {
        tags,
        operationId: 'rejectWithdrawal',
        summary: 'Reject a withdrawal',
        description:
          'pending | approved → rejected with the reason in `admin_note`; the amount goes back to the balance. 409 once the PIX transfer has started.',
        params: IdParams,
        body: RejectWithdrawalBody,
        response: { 200: One },
      },
    },
    async (request) => ({
      data: await withTx(deps.db, (tx) =>
        rejectWithdrawal(tx, deps, request.params.id, request.body.admin_note),
      ),
    }),
  )

  app.post(
    '/api/admin/withdrawals/:id/pay',
    {
      config,
      schema: {
        tags,
        operationId: 'payWithdrawal',
        summary: 'Pay a withdrawal by PIX',
        errors: [502],
        description:
          'approved → paid. With an automatic payout provider (sandbox, asaas) the body stays empty and the provider makes the PIX transfer (idempotent per withdrawal): a transfer the bank refuses rejects the withdrawal (reason in admin_note, money back); one the bank is still processing leaves it approved with `transfer_in_progress` until the provider tells the end; an unknown answer is a 502 and paying again is safe. With `PAYOUT_PROVIDER=manual` the admin sends the PIX by hand and records its `end_to_end_id` here (400 when missing or malformed, 409 when another withdrawal has it).',
        params: IdParams,
        body: PayWithdrawalBody,
        response: { 200: One },
      },
    },
    async (request) => ({
      data: await payWithdrawal(deps, request.params.id, {
        endToEndId: request.body?.end_to_end_id,
      }),
    }),
  )
}
