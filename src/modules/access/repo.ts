import { type Selectable, sql } from 'kysely'
import type { Executor } from '../../kit/db.ts'
import type { DB } from '../../kit/db-schema.ts'
import { newestFirst, type PageWindow } from '../../kit/http/pagination.ts'
import type { Part } from '../../kit/statement.ts'
import { type Fragment, fragmentTemplate } from '../../kit/template.ts'

type GrantRow = Omit<Selectable<DB['access_grants']>, 'revoked_at' | 'revoke_reason'>

// A paid order's grant, compiled once (kit/template.ts): every one-time sale writes it.
const insertGrantRow = fragmentTemplate(
  (_, v: GrantRow) =>
    sql`INSERT INTO access_grants (id, account_id, buyer_id, product_id, order_id, status, granted_at)
      VALUES (${v.id}, ${v.account_id}, ${v.buyer_id}, ${v.product_id}, ${v.order_id}, ${v.status},
        ${v.granted_at})
      ON CONFLICT (order_id) DO NOTHING
      RETURNING *`,
)

/** The buyer of the part `grant_row`, when it wrote one, becomes the account's member. */
const ENROL_MEMBER: Fragment = {
  sql: `INSERT INTO members (account_id, buyer_id, created_at)
    SELECT account_id, buyer_id, granted_at FROM grant_row
    ON CONFLICT DO NOTHING`,
  parameters: [],
}

export const accessRepo = {
  /**
   * The access of an order and the buyer's membership of the account, as parts of a statement
   * (kit/statement.ts). One access per order (unique index): a repeated grant writes nothing
   * and enrols no one; `grantIsNew` and `selectGrant` tell, in that statement.
   */
  grantParts(row: GrantRow): Part[] {
    return [
      { name: 'grant_row', query: insertGrantRow(row) },
      { name: 'member', query: ENROL_MEMBER },
    ]
  },

  grantIsNew: sql<boolean>`EXISTS (SELECT 1 FROM grant_row)`,

  selectGrant: sql<Selectable<DB['access_grants']>>`SELECT * FROM grant_row`,

  listMembers(db: Executor, accountId: string, window: PageWindow) {
    return db
      .selectFrom('members')
      .selectAll()
      .where('account_id', '=', accountId)
      .$call(
        newestFirst(window, {
          table: 'members',
          id: 'buyer_id',
          scope: { account_id: accountId },
        }),
      )
      .execute()
  },

  findMember(db: Executor, accountId: string, buyerId: string) {
    return db
      .selectFrom('members')
      .selectAll()
      .where('account_id', '=', accountId)
      .where('buyer_id', '=', buyerId)
      .executeTakeFirst()
  },

  grantsOf(db: Executor, accountId: string, buyerIds: string[]) {
    if (!buyerIds.length) return Promise.resolve([])
    return db
      .selectFrom('access_grants')
      .selectAll()
      .where('account_id', '=', accountId)
      .where('buyer_id', 'in', buyerIds)
      .orderBy('granted_at')
      .execute()
  },

  findByOrder(db: Executor, orderId: string) {
    return db
      .selectFrom('access_grants')
      .selectAll()
      .where('order_id', '=', orderId)
      .executeTakeFirst()
  },

  revoke(
    db: Executor,
    accountId: string,
    buyerId: string,
    accessId: string,
    reason: string,
    now: Date,
  ) {
    return db
      .updateTable('access_grants')
      .set({ status: 'revoked', revoked_at: now, revoke_reason: reason })
      .where('id', '=', accessId)
      .where('account_id', '=', accountId)
      .where('buyer_id', '=', buyerId)
      .where('status', '=', 'active')
      .returningAll()
      .executeTakeFirst()
  },

  findGrant(db: Executor, accountId: string, buyerId: string, accessId: string) {
    return db
      .selectFrom('access_grants')
      .selectAll()
      .where('id', '=', accessId)
      .where('account_id', '=', accountId)
      .where('buyer_id', '=', buyerId)
      .executeTakeFirst()
  },

  activeProductsOf(db: Executor, buyerId: string) {
    return db
      .selectFrom('access_grants')
      .select(['product_id', 'order_id', 'granted_at'])
      .where('buyer_id', '=', buyerId)
      .where('status', '=', 'active')
      .orderBy('granted_at', 'desc')
      .execute()
  },
}
