// An account's settings (issue 12): today whether its owner gets an e-mail for every sale.
// Small enough to keep its schema, its service and its routes in one file; the setting
// itself is read by the statement that marks an order paid (orders/repo.ts `markPaid`).
import { z } from 'zod'
import type { Executor } from '../../kit/db.ts'
import { NotFound } from '../../kit/errors.ts'
import { accountActorOf } from '../../kit/http/guard.ts'
import type { RouteModule } from '../../routes.ts'
import { accountsRepo as repo } from './repo.ts'
import { AccountParams } from './schema.ts'

export const AccountSettingsOut = z.object({
  sale_notifications: z
    .boolean()
    .describe("E-mail the account's owner when an order is paid (renewals included)"),
})

/** A partial update: what is left out stays as it is. */
export const AccountSettingsPatch = z.object({
  sale_notifications: z.boolean().optional(),
})

export type AccountSettings = z.infer<typeof AccountSettingsOut>

export async function readSettings(db: Executor, accountId: string): Promise<AccountSettings> {
  const row = await repo.findSettings(db, accountId)
  if (!row) throw new NotFound('Account not found')
  return row
}

export async function updateSettings(
  db: Executor,
  accountId: string,
  patch: z.infer<typeof AccountSettingsPatch>,
): Promise<AccountSettings> {
  if (patch.sale_notifications === undefined) return readSettings(db, accountId)
  const row = await repo.setSaleNotifications(db, accountId, patch.sale_notifications)
  if (!row) throw new NotFound('Account not found')
  return row
}

const tags = ['accounts']
// A key needs write:profile to read them too: there is no read scope for the profile.
const guard = { account: 'write:profile', from: 'params.account_id' } as const

export const accountSettingsRoutes: RouteModule = (app, deps) => {
  app.get(
    '/api/accounts/:account_id/settings',
    {
      config: { guard },
      schema: {
        tags,
        operationId: 'getAccountSettings',
        summary: "An account's settings",
        description:
          'Whether the owner is e-mailed for every paid order (`sale_notifications`, on by default). A session, or a key of the account with write:profile.',
        params: AccountParams,
        response: { 200: z.object({ data: AccountSettingsOut }) },
      },
    },
    async (request) => ({ data: await readSettings(deps.db, accountActorOf(request).accountId) }),
  )

  app.patch(
    '/api/accounts/:account_id/settings',
    {
      config: { guard },
      schema: {
        tags,
        operationId: 'updateAccountSettings',
        summary: "Change an account's settings",
        description:
          'Turns sale notifications on or off (`sale_notifications`); fields left out keep their value. A session, or a key of the account with write:profile.',
        params: AccountParams,
        body: AccountSettingsPatch,
        response: { 200: z.object({ data: AccountSettingsOut }) },
      },
    },
    async (request) => ({
      data: await updateSettings(deps.db, accountActorOf(request).accountId, request.body),
    }),
  )
}
