import { type Insertable, sql } from 'kysely'
import type { Executor } from '../../kit/db.ts'
import type { DB } from '../../kit/db-schema.ts'

export const webhooksRepo = {
  insertEndpoint(db: Executor, row: Insertable<DB['webhook_endpoints']>) {
    return db.insertInto('webhook_endpoints').values(row).returningAll().executeTakeFirstOrThrow()
  },

  findEndpoint(db: Executor, accountId: string, id: string) {
    return db
      .selectFrom('webhook_endpoints')
      .selectAll()
      .where('id', '=', id)
      .where('account_id', '=', accountId)
      .where('deleted_at', 'is', null)
      .executeTakeFirst()
  },

  listEndpoints(db: Executor, accountId: string, window: { offset: number; take: number }) {
    return db
      .selectFrom('webhook_endpoints')
      .selectAll()
      .where('account_id', '=', accountId)
      .where('deleted_at', 'is', null)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .offset(window.offset)
      .limit(window.take)
      .execute()
  },

  softDeleteEndpoint(db: Executor, accountId: string, id: string, now: Date) {
    return db
      .updateTable('webhook_endpoints')
      .set({ deleted_at: now, is_active: false, updated_at: now })
      .where('id', '=', id)
      .where('account_id', '=', accountId)
      .where('deleted_at', 'is', null)
      .executeTakeFirst()
  },

  insertEvent(db: Executor, row: Insertable<DB['events']>) {
    return db.insertInto('events').values(row).execute()
  },

  /** Fan-out in one statement: a pending delivery for each active endpoint subscribed to the type. */
  queueDeliveries(db: Executor, event: { id: string; accountId: string; type: string }, now: Date) {
    return sql`
      INSERT INTO webhook_deliveries (id, event_id, endpoint_id, account_id, status, next_attempt_at, created_at)
      SELECT gen_random_uuid(), ${event.id}, e.id, e.account_id, 'pending', ${now}, ${now}
      FROM webhook_endpoints e
      WHERE e.account_id = ${event.accountId} AND e.is_active AND e.deleted_at IS NULL
        AND ${event.type} = ANY (e.events)`.execute(db)
  },

  /** Everything one delivery attempt needs, in one read. */
  loadForDelivery(db: Executor, deliveryIds: string[]) {
    if (!deliveryIds.length) return Promise.resolve([])
    return db
      .selectFrom('webhook_deliveries as d')
      .innerJoin('events as ev', 'ev.id', 'd.event_id')
      .innerJoin('webhook_endpoints as ep', 'ep.id', 'd.endpoint_id')
      .select([
        'd.id',
        'd.attempts',
        'ev.id as event_id',
        'ev.type',
        'ev.data',
        'ev.created_at as event_created_at',
        'ep.url',
        'ep.secret_sealed',
        'ep.is_active',
        'ep.deleted_at',
      ])
      .where('d.id', 'in', deliveryIds)
      .execute()
  },

  insertAttempt(db: Executor, row: Insertable<DB['webhook_attempts']>) {
    return db.insertInto('webhook_attempts').values(row).execute()
  },

  finishDelivery(
    db: Executor,
    id: string,
    patch: {
      status: 'pending' | 'delivered' | 'failed'
      next_attempt_at?: Date
      last_status_code: number | null
      last_error: string | null
      delivered_at?: Date | null
    },
  ) {
    return db
      .updateTable('webhook_deliveries')
      .set({ ...patch, locked_until: null })
      .where('id', '=', id)
      .execute()
  },

  listDeliveries(db: Executor, endpointId: string, window: { offset: number; take: number }) {
    return db
      .selectFrom('webhook_deliveries as d')
      .innerJoin('events as ev', 'ev.id', 'd.event_id')
      .select([
        'd.id',
        'd.event_id',
        'ev.type',
        'd.status',
        'd.attempts',
        'd.next_attempt_at',
        'd.last_status_code',
        'd.last_error',
        'd.delivered_at',
        'd.created_at',
      ])
      .where('d.endpoint_id', '=', endpointId)
      .orderBy('d.created_at', 'desc')
      .orderBy('d.id', 'desc')
      .offset(window.offset)
      .limit(window.take)
      .execute()
  },

  attemptsOf(db: Executor, deliveryIds: string[]) {
    if (!deliveryIds.length) return Promise.resolve([])
    return db
      .selectFrom('webhook_attempts')
      .selectAll()
      .where('delivery_id', 'in', deliveryIds)
      .orderBy('attempt')
      .execute()
  },
}
