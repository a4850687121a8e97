import { type Insertable, sql, type Updateable } from 'kysely'
import type { Executor } from '../../kit/db.ts'
import type { DB } from '../../kit/db-schema.ts'

/** The channel a committed delivery is announced on. */
export const DELIVERIES_CHANNEL = 'vitrine_webhook_deliveries'

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

  updateEndpoint(
    db: Executor,
    accountId: string,
    id: string,
    patch: Updateable<DB['webhook_endpoints']>,
  ) {
    return db
      .updateTable('webhook_endpoints')
      .set(patch)
      .where('id', '=', id)
      .where('account_id', '=', accountId)
      .where('deleted_at', 'is', null)
      .returningAll()
      .executeTakeFirst()
  },

  /** After a failed attempt: the start of the failing streak (kept if already failing). */
  markFailing(db: Executor, id: string, now: Date) {
    return db
      .updateTable('webhook_endpoints')
      .set((eb) => ({ failing_since: eb.fn.coalesce('failing_since', eb.val(now)) }))
      .where('id', '=', id)
      .returning(['failing_since', 'is_active'])
      .executeTakeFirst()
  },

  markHealthy(db: Executor, ids: string[]) {
    return db
      .updateTable('webhook_endpoints')
      .set({ failing_since: null })
      .where('id', 'in', ids)
      .where('failing_since', 'is not', null)
      .execute()
  },

  /** Turns an active endpoint off, once; undefined when it already was. */
  disableEndpoint(db: Executor, id: string, reason: string, now: Date) {
    return db
      .updateTable('webhook_endpoints')
      .set({ is_active: false, disabled_reason: reason, updated_at: now })
      .where('id', '=', id)
      .where('is_active', '=', true)
      .returningAll()
      .executeTakeFirst()
  },

  insertDelivery(db: Executor, row: Insertable<DB['webhook_deliveries']>) {
    return db.insertInto('webhook_deliveries').values(row).returningAll().executeTakeFirstOrThrow()
  },

  findDelivery(db: Executor, accountId: string, id: string) {
    return db
      .selectFrom('webhook_deliveries')
      .selectAll()
      .where('id', '=', id)
      .where('account_id', '=', accountId)
      .executeTakeFirst()
  },

  /** Failed deliveries get one more attempt each, due now. */
  retryFailed(
    db: Executor,
    filter: { deliveryId?: string; endpointId?: string; since?: Date },
    now: Date,
  ) {
    let query = db
      .updateTable('webhook_deliveries')
      .set((eb) => ({
        status: 'pending',
        next_attempt_at: now,
        max_attempts: eb('attempts', '+', 1),
        locked_until: null,
      }))
      .where('status', '=', 'failed')
    if (filter.deliveryId) query = query.where('id', '=', filter.deliveryId)
    if (filter.endpointId) query = query.where('endpoint_id', '=', filter.endpointId)
    if (filter.since) query = query.where('created_at', '>=', filter.since)
    return query.returning('id').execute()
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
  async queueDeliveries(
    db: Executor,
    event: { id: string; accountId: string; type: string },
    now: Date,
  ): Promise<number> {
    const result = await sql`
      INSERT INTO webhook_deliveries (id, event_id, endpoint_id, account_id, status, next_attempt_at, created_at)
      SELECT gen_random_uuid(), ${event.id}, e.id, e.account_id, 'pending', ${now}, ${now}
      FROM webhook_endpoints e
      WHERE e.account_id = ${event.accountId} AND e.is_active AND e.deleted_at IS NULL
        AND ${event.type} = ANY (e.events)`.execute(db)
    return Number(result.numAffectedRows ?? 0)
  },

  /** Wakes every delivery worker when the caller's transaction commits (not before). */
  async notifyWorkers(db: Executor) {
    await sql`SELECT pg_notify(${DELIVERIES_CHANNEL}, '')`.execute(db)
  },

  /**
   * Leases due deliveries fairly: it walks the endpoints that have pending work (a loose index
   * scan, one probe per endpoint) and takes from each at most `perEndpoint` minus what is
   * already in flight there, oldest first. A slow endpoint's backlog therefore never fills a
   * batch while another endpoint waits. Two workers claiming at the same instant may each fill
   * the same endpoint's room once; the UPDATE's guard still leases every row to one of them.
   */
  async claimDue(
    db: Executor,
    opts: { now: Date; limit: number; perEndpoint: number; leaseMs: number },
  ): Promise<string[]> {
    const { now, limit, perEndpoint } = opts
    const leaseUntil = new Date(now.getTime() + opts.leaseMs)
    const result = await sql<{ id: string }>`
      WITH RECURSIVE queues AS (
        (SELECT endpoint_id FROM webhook_deliveries WHERE status = 'pending'
          ORDER BY endpoint_id LIMIT 1)
        UNION ALL
        SELECT (SELECT d.endpoint_id FROM webhook_deliveries d
                WHERE d.status = 'pending' AND d.endpoint_id > q.endpoint_id
                ORDER BY d.endpoint_id LIMIT 1)
        FROM queues q WHERE q.endpoint_id IS NOT NULL
      ), picked AS (
        SELECT pick.id, pick.next_attempt_at FROM queues q
        CROSS JOIN LATERAL (
          SELECT d.id, d.next_attempt_at FROM webhook_deliveries d
          WHERE d.endpoint_id = q.endpoint_id AND d.status = 'pending'
            AND d.next_attempt_at <= ${now}
            AND (d.locked_until IS NULL OR d.locked_until <= ${now})
          ORDER BY d.next_attempt_at
          LIMIT GREATEST(0, ${perEndpoint}::int - (
            SELECT count(*) FROM webhook_deliveries f
            WHERE f.endpoint_id = q.endpoint_id AND f.status = 'pending'
              AND f.locked_until > ${now}))
        ) pick
        WHERE q.endpoint_id IS NOT NULL
        ORDER BY pick.next_attempt_at
        LIMIT ${limit}
      )
      UPDATE webhook_deliveries d
      SET locked_until = ${leaseUntil}, attempts = d.attempts + 1
      FROM picked
      WHERE d.id = picked.id AND d.status = 'pending'
        AND (d.locked_until IS NULL OR d.locked_until <= ${now})
      RETURNING d.id`.execute(db)
    return result.rows.map((r) => r.id)
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
        'd.max_attempts',
        'd.endpoint_id',
        'd.account_id',
        'ev.id as event_id',
        'ev.type',
        'ev.data',
        'ev.created_at as event_created_at',
        'ep.url',
        'ep.secret_sealed',
        'ep.previous_secret_sealed',
        'ep.previous_secret_expires_at',
        'ep.is_active',
        'ep.deleted_at',
      ])
      .where('d.id', 'in', deliveryIds)
      .execute()
  },

  insertAttempts(db: Executor, rows: Insertable<DB['webhook_attempts']>[]) {
    return db.insertInto('webhook_attempts').values(rows).execute()
  },

  /** Many successful deliveries in one statement. */
  markDelivered(db: Executor, rows: { id: string; statusCode: number; at: Date }[]) {
    const values = sql.join(
      rows.map((r) => sql`(${r.id}::uuid, ${r.statusCode}::int, ${r.at}::timestamptz)`),
    )
    return sql`
      UPDATE webhook_deliveries d
      SET status = 'delivered', last_status_code = v.code, last_error = NULL,
        delivered_at = v.at, locked_until = NULL
      FROM (VALUES ${values}) AS v (id, code, at)
      WHERE d.id = v.id`.execute(db)
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
