import { type Insertable, type Selectable, sql } from 'kysely'
import type { Executor } from '../../kit/db.ts'
import type { DB } from '../../kit/db-schema.ts'
import { type Part, writeParts } from '../../kit/statement.ts'
import { type Fragment, fragmentTemplate } from '../../kit/template.ts'

/** A buyer created without a password, and their log-in link. */
type NewUser = Pick<Selectable<DB['users']>, 'id' | 'name' | 'email' | 'created_at'>
type NewLoginLink = Pick<Selectable<DB['login_links']>, 'token_hash' | 'created_at' | 'expires_at'>

/** A buyer's statement parts, compiled once (kit/template.ts). */
const buyer = {
  created: fragmentTemplate((q, v: NewUser) =>
    q
      .insertInto('users')
      .values({ id: v.id, name: v.name, email: v.email, created_at: v.created_at })
      .onConflict((oc) => oc.column('email').doNothing())
      .returningAll(),
  ),
  link: fragmentTemplate(
    (
      _,
      v: NewLoginLink,
    ) => sql`INSERT INTO login_links (token_hash, user_id, created_at, expires_at)
      SELECT ${v.token_hash}::text, id, ${v.created_at}::timestamptz, ${v.expires_at}::timestamptz
      FROM created`,
  ),
  id: fragmentTemplate(
    (_, v: { email: string }) =>
      sql`SELECT id FROM created UNION ALL SELECT id FROM users WHERE email = ${v.email} LIMIT 1`,
  ),
  selectCreated: { sql: 'SELECT * FROM created', parameters: [] } satisfies Fragment,
}

export const accountsRepo = {
  findSettings(db: Executor, accountId: string) {
    return db
      .selectFrom('accounts')
      .select('sale_notifications')
      .where('id', '=', accountId)
      .executeTakeFirst()
  },

  setSaleNotifications(db: Executor, accountId: string, on: boolean) {
    return db
      .updateTable('accounts')
      .set({ sale_notifications: on })
      .where('id', '=', accountId)
      .returning('sale_notifications')
      .executeTakeFirst()
  },

  findUserByEmail(db: Executor, email: string) {
    return db.selectFrom('users').selectAll().where('email', '=', email).executeTakeFirst()
  },

  findUserById(db: Executor, id: string) {
    return db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst()
  },

  /** Inserts unless the e-mail exists; returns the row either way (race-safe). */
  async upsertUserByEmail(db: Executor, user: Insertable<DB['users']>) {
    await db
      .insertInto('users')
      .values(user)
      .onConflict((oc) => oc.column('email').doNothing())
      .execute()
    return db
      .selectFrom('users')
      .selectAll()
      .where('email', '=', user.email)
      .executeTakeFirstOrThrow()
  },

  /**
   * A new user and, in the same statement, a log-in link for them; undefined (and no link)
   * when the e-mail is taken.
   */
  async insertUserWithLoginLink(db: Executor, user: NewUser, link: NewLoginLink) {
    const [created] = await writeParts<Selectable<DB['users']>>(
      db,
      this.userWithLoginLinkParts(user, link),
      buyer.selectCreated,
    )
    return created
  },

  /**
   * insertUserWithLoginLink as parts of a statement (kit/statement.ts): `created` (the user,
   * unless the e-mail is taken) and `link` (only for a created user). In that statement
   * `userIsNew` tells which.
   */
  userWithLoginLinkParts(user: NewUser, link: NewLoginLink): Part[] {
    return [
      { name: 'created', query: buyer.created(user) },
      { name: 'link', query: buyer.link(link) },
    ]
  },

  userIsNew: sql<boolean>`EXISTS (SELECT 1 FROM created)`,

  /**
   * Beside userWithLoginLinkParts, the part `buyer`: the id of the user created there or found
   * by e-mail, which `buyerId` reads. None when another transaction took the e-mail after the
   * statement's snapshot was taken (the user is then neither created nor seen): `buyerId` is
   * null, the caller's statement fails and is run again.
   */
  buyerIdPart: (email: string): Part => ({ name: 'buyer', query: buyer.id({ email }) }),

  /** The id of the part `buyerIdPart`, as a value (null when it found none). */
  buyerId: sql<string>`(SELECT id FROM buyer)`,

  insertUser(db: Executor, user: Insertable<DB['users']>) {
    return db
      .insertInto('users')
      .values(user)
      .onConflict((oc) => oc.column('email').doNothing())
      .returningAll()
      .executeTakeFirst()
  },

  updateUser(
    db: Executor,
    id: string,
    patch: { name?: string; password_hash?: string; is_admin?: boolean },
  ) {
    return db.updateTable('users').set(patch).where('id', '=', id).execute()
  },

  insertAccount(db: Executor, account: Insertable<DB['accounts']>) {
    return db.insertInto('accounts').values(account).execute()
  },

  addAccountUser(db: Executor, row: Insertable<DB['account_users']>) {
    return db
      .insertInto('account_users')
      .values(row)
      .onConflict((oc) => oc.doNothing())
      .execute()
  },

  accountsOfUser(db: Executor, userId: string) {
    return db
      .selectFrom('account_users')
      .innerJoin('accounts', 'accounts.id', 'account_users.account_id')
      .select(['accounts.id', 'accounts.name', 'account_users.role', 'account_users.created_at'])
      .where('account_users.user_id', '=', userId)
      .orderBy('account_users.created_at')
      .orderBy('accounts.id')
      .execute()
  },

  ownerOf(db: Executor, accountId: string) {
    return db
      .selectFrom('account_users')
      .innerJoin('users', 'users.id', 'account_users.user_id')
      .select(['users.id', 'users.name', 'users.email'])
      .where('account_users.account_id', '=', accountId)
      .where('account_users.role', '=', 'owner')
      .executeTakeFirst()
  },

  insertSession(db: Executor, row: Insertable<DB['user_sessions']>) {
    return db.insertInto('user_sessions').values(row).execute()
  },

  findLiveSession(db: Executor, tokenHash: string, now: Date) {
    return db
      .selectFrom('user_sessions')
      .innerJoin('users', 'users.id', 'user_sessions.user_id')
      .select(['users.id as user_id', 'users.is_admin', 'user_sessions.token_hash'])
      .where('user_sessions.token_hash', '=', tokenHash)
      .where('user_sessions.expires_at', '>', now)
      .executeTakeFirst()
  },

  deleteSession(db: Executor, tokenHash: string) {
    return db.deleteFrom('user_sessions').where('token_hash', '=', tokenHash).execute()
  },

  deleteOtherSessions(db: Executor, userId: string, keptTokenHash: string) {
    return db
      .deleteFrom('user_sessions')
      .where('user_id', '=', userId)
      .where('token_hash', '<>', keptTokenHash)
      .execute()
  },

  insertApiKey(db: Executor, row: Insertable<DB['api_keys']>) {
    return db.insertInto('api_keys').values(row).returningAll().executeTakeFirstOrThrow()
  },

  findLiveApiKey(db: Executor, keyHash: string) {
    return db
      .selectFrom('api_keys')
      .innerJoin('users', 'users.id', 'api_keys.created_by')
      .select([
        'api_keys.id',
        'api_keys.key_hash',
        'api_keys.account_id',
        'api_keys.scopes',
        'api_keys.created_by',
        'api_keys.last_used_at',
        'users.is_admin',
      ])
      .where('api_keys.key_hash', '=', keyHash)
      .where('api_keys.revoked_at', 'is', null)
      .executeTakeFirst()
  },

  touchApiKey(db: Executor, id: string, now: Date) {
    return db.updateTable('api_keys').set({ last_used_at: now }).where('id', '=', id).execute()
  },

  listApiKeys(db: Executor, accountId: string) {
    return db
      .selectFrom('api_keys')
      .selectAll()
      .where('account_id', '=', accountId)
      .where('revoked_at', 'is', null)
      .orderBy('created_at', 'desc')
      .execute()
  },

  revokeApiKey(db: Executor, accountId: string, id: string, now: Date) {
    return db
      .updateTable('api_keys')
      .set({ revoked_at: now })
      .where('id', '=', id)
      .where('account_id', '=', accountId)
      .where('revoked_at', 'is', null)
      .executeTakeFirst()
  },

  findUsersByIds(db: Executor, ids: string[]) {
    if (!ids.length) return Promise.resolve([])
    return db
      .selectFrom('users')
      .select(['id', 'name', 'email', 'created_at'])
      .where('id', 'in', ids)
      .execute()
  },

  insertLoginLink(db: Executor, row: Insertable<DB['login_links']>) {
    return db.insertInto('login_links').values(row).execute()
  },

  findLiveLoginLink(db: Executor, tokenHash: string, now: Date) {
    return db
      .selectFrom('login_links')
      .select('user_id')
      .where('token_hash', '=', tokenHash)
      .where('used_at', 'is', null)
      .where('expires_at', '>', now)
      .executeTakeFirst()
  },

  /** Any link row of this hash, used or not (a spent member link is one). */
  findLoginLink(db: Executor, tokenHash: string) {
    return db
      .selectFrom('login_links')
      .select('used_at')
      .where('token_hash', '=', tokenHash)
      .executeTakeFirst()
  },

  /** Records a stateless link as spent; undefined when it already was (one use). */
  insertSpentLoginLink(db: Executor, row: Insertable<DB['login_links']>) {
    return db
      .insertInto('login_links')
      .values(row)
      .onConflict((oc) => oc.column('token_hash').doNothing())
      .returning('user_id')
      .executeTakeFirst()
  },

  useLoginLink(db: Executor, tokenHash: string, now: Date) {
    return db
      .updateTable('login_links')
      .set({ used_at: now })
      .where('token_hash', '=', tokenHash)
      .where('used_at', 'is', null)
      .where('expires_at', '>', now)
      .returning('user_id')
      .executeTakeFirst()
  },
}
