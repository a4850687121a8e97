import { z } from 'zod'

/** Every scope an API key may carry (SPEC §2). */
export const SCOPES = [
  'refunds:create',
  'write:webhooks',
  'read:webhooks',
  'read:orders',
  'read:products',
  'write:products',
  'read:members',
  'write:members',
  'read:refunds',
  'read:subscriptions',
  'write:subscriptions',
  'read:payouts',
  'write:payouts',
  'write:profile',
] as const
export type Scope = (typeof SCOPES)[number]

const email = z.string().trim().toLowerCase().pipe(z.email().max(254))

export const SignupBody = z.object({
  name: z.string().trim().min(1).max(120),
  email,
  password: z.string().min(8).max(200),
})

export const LoginBody = z.object({ email, password: z.string().min(1).max(200) })

export const LoginLinkBody = z.object({ email })

export const UserOut = z.object({ id: z.string(), name: z.string(), email: z.string() })
export const AccountOut = z.object({ id: z.string(), name: z.string() })

export const SessionOut = z.object({
  user: UserOut,
  account: AccountOut.optional(),
  csrf_token: z.string(),
})

export const MeOut = z.object({
  user: UserOut.extend({ is_admin: z.boolean() }),
  accounts: z.array(AccountOut.extend({ role: z.string() })),
})

export const CreateApiKeyBody = z.object({
  name: z.string().trim().min(1).max(100),
  scopes: z.array(z.enum(SCOPES)).min(1),
})

export const ApiKeyOut = z.object({
  id: z.string(),
  name: z.string(),
  prefix: z.string(),
  scopes: z.array(z.string()),
  created_at: z.string(),
  last_used_at: z.string().nullable(),
})

export const AccountParams = z.object({ account_id: z.uuid() })
export const ApiKeyParams = AccountParams.extend({ key_id: z.uuid() })
