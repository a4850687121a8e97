// The back office's read API (issue 12): search accounts and orders, and the withdrawal
// history with each open withdrawal's holder balance. The platform admin only.
import { listOf } from '../../kit/http/pagination.ts'
import type { RouteModule } from '../../routes.ts'
import {
  AccountSearchQuery,
  AdminAccountOut,
  AdminOrderOut,
  AdminWithdrawalOut,
  OrderSearchQuery,
  WithdrawalHistoryQuery,
} from './schema.ts'
import { searchAccounts, searchOrders, withdrawalHistory } from './service.ts'

const config = { guard: 'admin' } as const
const tags = ['admin']

export const adminRoutes: RouteModule = (app, deps) => {
  app.get(
    '/api/admin/accounts',
    {
      config,
      schema: {
        tags,
        operationId: 'searchAccounts',
        summary: 'Search accounts',
        description:
          "By the account's or its owner's id (UUID), the owner's e-mail (exact), or part of the account's or owner's name or e-mail; newest first.",
        querystring: AccountSearchQuery,
        response: { 200: listOf(AdminAccountOut) },
      },
    },
    async (request) => searchAccounts(deps.db, request.query),
  )

  app.get(
    '/api/admin/orders',
    {
      config,
      schema: {
        tags,
        operationId: 'searchOrders',
        summary: 'Search orders',
        description:
          "Every account's orders by order id (UUID) or the buyer's e-mail (exact), newest first, with the product and the selling account.",
        querystring: OrderSearchQuery,
        response: { 200: listOf(AdminOrderOut) },
      },
    },
    async (request) => searchOrders(deps.db, request.query),
  )

  app.get(
    '/api/admin/withdrawal-history',
    {
      config,
      schema: {
        tags,
        operationId: 'listWithdrawalHistory',
        summary: 'Withdrawal history with holders and balances',
        description:
          "Every withdrawal, newest first, optionally by `status` (`open` = pending or approved), with the holder's name and e-mail, the PIX key in full, and for an open one the holder's available balance now.",
        querystring: WithdrawalHistoryQuery,
        response: { 200: listOf(AdminWithdrawalOut) },
      },
    },
    async (request) => withdrawalHistory(deps.db, request.query),
  )
}
