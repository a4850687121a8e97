import type { Deps } from '../../deps.ts'
import { afterCommit } from '../../kit/after-commit.ts'
import {
  deriveKey,
  hashPassword,
  hmacHex,
  randomToken,
  safeEqual,
  sha256Hex,
  verifyPassword,
} from '../../kit/crypto.ts'
import type { Db, Executor, Tx } from '../../kit/db.ts'
import { Conflict, NotFound, Unauthorized } from '../../kit/errors.ts'
import type { AuthResolver } from '../../kit/http/auth.ts'
import { uuidv7 } from '../../kit/ids.ts'
import { hitEach, type RateLimit, refund } from '../../kit/rate-limit.ts'
import type { KeyCache } from './key-cache.ts'
import { LOGIN_FAILURES_PER_EMAIL, LOGIN_FAILURES_PER_IP } from './limits.ts'
import { accountsRepo as repo } from './repo.ts'
import type { Scope } from './schema.ts'

type Ctx = Pick<Deps, 'clock' | 'appSecret'>

const SESSION_DAYS = 30
const API_KEY_PREFIX = 'vt_'
// Skips a write per request; "last used" to the minute is enough.
const TOUCH_EVERY_MS = 60_000

export function csrfTokenFor(ctx: Ctx, sessionTokenHash: string): string {
  return hmacHex(deriveKey(ctx.appSecret, 'csrf'), sessionTokenHash)
}

export async function signup(
  tx: Tx,
  ctx: Ctx,
  input: { name: string; email: string; password: string },
) {
  const now = ctx.clock.now()
  const user = await repo.insertUser(tx, {
    id: uuidv7(now.getTime()),
    name: input.name,
    email: input.email,
    password_hash: await hashPassword(input.password),
    created_at: now,
  })
  if (!user) throw new Conflict('E-mail já cadastrado')
  const account = await createAccountFor(tx, ctx, user.id, input.name)
  return { user, account }
}

export async function createAccountFor(tx: Tx, ctx: Ctx, userId: string, name: string) {
  const now = ctx.clock.now()
  const account = { id: uuidv7(now.getTime()), name, created_at: now }
  await repo.insertAccount(tx, account)
  await repo.addAccountUser(tx, {
    account_id: account.id,
    user_id: userId,
    role: 'owner',
    created_at: now,
  })
  return account
}

/**
 * Checks an e-mail and password from `ip`. Every attempt is logged as a failure before the
 * password is hashed (so a full bucket refuses without spending a hash, and a burst of
 * concurrent guesses cannot all pass a check made before any of them failed); a success
 * takes its own two hits back. Earlier failures stay counted: an attacker's valid account
 * never resets the IP's count.
 */
export async function login(
  db: Db,
  ctx: Ctx,
  input: { email: string; password: string },
  ip: string,
) {
  const buckets: [RateLimit, string][] = [
    [LOGIN_FAILURES_PER_EMAIL, input.email],
    [LOGIN_FAILURES_PER_IP, ip],
  ]
  const logged = await hitEach(db, ctx.clock, buckets)
  const user = await repo.findUserByEmail(db, input.email)
  // Hash anyway when the user is unknown, so timing does not reveal which e-mails exist.
  const ok = await verifyPassword(input.password, user?.password_hash ?? DUMMY_HASH)
  if (!user?.password_hash || !ok) throw new Unauthorized()
  for (const [i, [rule, key]] of buckets.entries()) await refund(db, rule, key, logged[i]!)
  return user
}
const DUMMY_HASH = await hashPassword(randomToken(16))

export async function createSession(tx: Executor, ctx: Ctx, userId: string) {
  const token = randomToken(32)
  const tokenHash = sha256Hex(token)
  const now = ctx.clock.now()
  const maxAgeSeconds = SESSION_DAYS * 86_400
  await repo.insertSession(tx, {
    token_hash: tokenHash,
    user_id: userId,
    created_at: now,
    expires_at: new Date(now.getTime() + maxAgeSeconds * 1000),
  })
  return { token, csrfToken: csrfTokenFor(ctx, tokenHash), maxAgeSeconds }
}

export function endSession(db: Executor, token: string) {
  return repo.deleteSession(db, sha256Hex(token))
}

export async function describeUser(db: Executor, userId: string) {
  const user = await repo.findUserById(db, userId)
  if (!user) throw new NotFound('User not found')
  const accounts = await repo.accountsOfUser(db, userId)
  return {
    user: { id: user.id, name: user.name, email: user.email, is_admin: user.is_admin },
    accounts: accounts.map((a) => ({ id: a.id, name: a.name, role: a.role })),
  }
}

/** ADMIN_EMAIL / ADMIN_PASSWORD at start: create or update the platform admin. */
export async function ensureAdmin(tx: Tx, ctx: Ctx, input: { email: string; password: string }) {
  const email = input.email.trim().toLowerCase()
  const now = ctx.clock.now()
  const user = await repo.upsertUserByEmail(tx, {
    id: uuidv7(now.getTime()),
    name: 'Administrador',
    email,
    created_at: now,
  })
  await repo.updateUser(tx, user.id, {
    password_hash: await hashPassword(input.password),
    is_admin: true,
  })
  if ((await repo.accountsOfUser(tx, user.id)).length === 0) {
    await createAccountFor(tx, ctx, user.id, 'Vitrine')
  }
  return user
}

/**
 * The buyer of a grant or an invitation: an existing user by e-mail, or a new one without a
 * password, written with a log-in link to the members area in the same statement. `loginUrl`
 * (new users only) is for the access e-mail the caller sends.
 */
export async function ensureBuyer(
  tx: Tx,
  ctx: Ctx & { config: { baseUrl: string } },
  input: { name: string; email: string },
) {
  const { user, link, loginUrl } = newBuyer(ctx, input)
  const created = await repo.insertUserWithLoginLink(tx, user, link)
  if (created) return { user: created, created: true, loginUrl } as const
  const existing = await repo.findUserByEmail(tx, input.email)
  if (!existing) throw new Error('buyer vanished between insert and select')
  return { user: existing, created: false, loginUrl: null } as const
}

/**
 * The buyer of a checkout as parts of the checkout's one statement (kit/statement.ts): a new
 * user with a log-in link, or the existing one by e-mail. In that statement `id` is the
 * buyer's id and `isNew` whether they were created there; `newUserId` and `loginUrl` are the
 * new user's (for the access mail). `id` is null when another checkout created the same e-mail
 * a moment before: a statement that needs it fails whole, and runs again.
 */
export function buyerParts(
  ctx: Ctx & { config: { baseUrl: string } },
  input: { name: string; email: string },
) {
  const { user, link, loginUrl } = newBuyer(ctx, input)
  return {
    parts: [...repo.userWithLoginLinkParts(user, link), repo.buyerIdPart(input.email)],
    id: repo.buyerId,
    isNew: repo.userIsNew,
    newUserId: user.id,
    loginUrl,
  }
}

function newBuyer(
  ctx: Ctx & { config: { baseUrl: string } },
  input: { name: string; email: string },
) {
  const now = ctx.clock.now()
  const token = randomToken(32)
  return {
    user: { id: uuidv7(now.getTime()), name: input.name, email: input.email, created_at: now },
    link: {
      token_hash: sha256Hex(token),
      created_at: now,
      expires_at: new Date(now.getTime() + ACCESS_LINK_MS),
    },
    loginUrl: loginUrlOf(ctx, token),
  }
}

export async function createApiKey(
  tx: Tx,
  ctx: Ctx,
  input: { accountId: string; userId: string; name: string; scopes: Scope[] },
) {
  const key = `${API_KEY_PREFIX}${randomToken(32)}`
  const now = ctx.clock.now()
  const row = await repo.insertApiKey(tx, {
    id: uuidv7(now.getTime()),
    account_id: input.accountId,
    created_by: input.userId,
    name: input.name,
    prefix: key.slice(0, API_KEY_PREFIX.length + 8),
    key_hash: sha256Hex(key),
    scopes: [...new Set(input.scopes)],
    created_at: now,
  })
  return { row, key }
}

export const listApiKeys = (db: Executor, accountId: string) => repo.listApiKeys(db, accountId)

/** Revokes a key; `keys` forgets it once the revocation commits. */
export async function revokeApiKey(
  tx: Tx,
  ctx: Ctx,
  keys: KeyCache,
  accountId: string,
  keyId: string,
) {
  const result = await repo.revokeApiKey(tx, accountId, keyId, ctx.clock.now())
  if (!result.numUpdatedRows) throw new NotFound('API key not found')
  afterCommit(tx, () => keys.forget(keyId))
}

/**
 * How the HTTP kit turns a bearer key or a session cookie into an identity. Keys are
 * remembered in `keys` for a few seconds (key-cache.ts); sessions are read each time.
 */
export function authResolver(
  deps: Pick<Deps, 'db' | 'clock' | 'appSecret'>,
  keys: KeyCache,
): AuthResolver {
  return {
    async byApiKey(raw) {
      if (!raw.startsWith(API_KEY_PREFIX)) return null
      const hash = sha256Hex(raw)
      const now = deps.clock.now()
      let key = keys.get(hash, now)
      if (!key) {
        const revision = keys.revision
        const row = await repo.findLiveApiKey(deps.db, hash)
        if (!row || !safeEqual(row.key_hash, hash)) return null
        key = keys.set(
          hash,
          {
            identity: {
              keyId: row.id,
              userId: row.created_by,
              accountId: row.account_id,
              scopes: row.scopes,
              isAdmin: row.is_admin,
            },
            lastUsedAt: row.last_used_at,
          },
          now,
          revision,
        )
      }
      if (!key.lastUsedAt || now.getTime() - key.lastUsedAt.getTime() > TOUCH_EVERY_MS) {
        key.lastUsedAt = now
        await repo.touchApiKey(deps.db, key.identity.keyId, now)
      }
      return key.identity
    },
    async bySession(raw) {
      const hash = sha256Hex(raw)
      const session = await repo.findLiveSession(deps.db, hash, deps.clock.now())
      if (!session) return null
      const accounts = await repo.accountsOfUser(deps.db, session.user_id)
      return {
        userId: session.user_id,
        isAdmin: session.is_admin,
        accountIds: accounts.map((a) => a.id),
        csrfToken: csrfTokenFor(deps, hash),
      }
    },
  }
}

/** Who answers for an account (notices about its webhooks, balance). */
export const accountOwner = (db: Executor, accountId: string) => repo.ownerOf(db, accountId)

/** The id of the user with this e-mail, if there is one. */
export async function userIdByEmail(db: Executor, email: string) {
  return (await repo.findUserByEmail(db, email))?.id ?? null
}

/** One user's name and e-mail (withdrawal e-mails, the profile). */
export async function findUser(db: Executor, id: string) {
  const user = await repo.findUserById(db, id)
  if (!user) throw new Error(`user ${id} not found`)
  return { name: user.name, email: user.email }
}

/** Whether the user has set a password (changing it then asks for the current one). */
export async function hasPassword(db: Executor, id: string) {
  return Boolean((await repo.findUserById(db, id))?.password_hash)
}

/** Names and e-mails of users, for other modules' listings (members). */
export async function usersByIds(db: Executor, ids: string[]) {
  const rows = await repo.findUsersByIds(db, ids)
  return new Map(rows.map((u) => [u.id, u]))
}

/** How long the access and invitation e-mails' links live: the buyer may read them days later. */
export const ACCESS_LINK_MS = 7 * 86_400_000

/**
 * A one-time log-in token (only its hash is stored). Opening a page that carries it only shows
 * a button or a form; their POST spends it, so mail scanners that open links do not burn it.
 */
export async function createLoginToken(
  tx: Tx,
  ctx: Ctx,
  userId: string,
  lifetimeMs = ACCESS_LINK_MS,
): Promise<string> {
  const token = randomToken(32)
  const now = ctx.clock.now()
  await repo.insertLoginLink(tx, {
    token_hash: sha256Hex(token),
    user_id: userId,
    created_at: now,
    expires_at: new Date(now.getTime() + lifetimeMs),
  })
  return token
}

/** A one-time log-in link for the members area (`consumeLoginLink` spends it). */
export async function createLoginLink(
  tx: Tx,
  ctx: Ctx & { config: { baseUrl: string } },
  userId: string,
  lifetimeMs = ACCESS_LINK_MS,
) {
  return loginUrlOf(ctx, await createLoginToken(tx, ctx, userId, lifetimeMs))
}

const loginUrlOf = (ctx: { config: { baseUrl: string } }, token: string) =>
  `${ctx.config.baseUrl}/members/login?token=${token}`

/** Whether a log-in link can still be used, without spending it. */
export async function loginLinkIsLive(db: Executor, ctx: Ctx, token: string) {
  return Boolean(await repo.findLiveLoginLink(db, sha256Hex(token), ctx.clock.now()))
}

/** Spends a log-in link once; returns the user id or null. */
export async function consumeLoginLink(tx: Tx, ctx: Ctx, token: string) {
  const row = await repo.useLoginLink(tx, sha256Hex(token), ctx.clock.now())
  return row?.user_id ?? null
}
