import { type Insertable, type RawBuilder, sql, type Updateable } from 'kysely'
import type { Executor } from '../../kit/db.ts'
import type { DB } from '../../kit/db-schema.ts'
import { newestFirst, type PageWindow } from '../../kit/http/pagination.ts'
import type { Part } from '../../kit/statement.ts'
import { ALWAYS, fragmentTemplatePer } from '../../kit/template.ts'
import type { Birth } from './handoff.ts'

/** A leased delivery with its event and endpoint: all one attempt needs. */
export interface ClaimedDelivery {
  id: string
  /** Attempts so far, this one included: the claim's fencing token. */
  attempts: number
  max_attempts: number
  endpoint_id: string
  account_id: string
  event_id: string
  type: string
  data: unknown
  event_created_at: Date
  url: string
  secret_sealed: string
  previous_secret_sealed: string | null
  previous_secret_expires_at: Date | null
  is_active: boolean
  deleted_at: Date | null
}

/** One successful attempt to log and settle. */
export interface SuccessRow {
  attemptId: string
  deliveryId: string
  endpointId: string
  /** The claim's attempts value (fencing token). */
  attempt: number
  statusCode: number
  durationMs: number
  responseBody: string | null
  at: Date
}

/** An event row as the outbox writes it (`data` is JSON text). */
export interface EventRow {
  id: string
  type: string
  data: string
  created_at: Date
  /** Written only when the statement's `keep` condition holds. */
  conditional: boolean
}

/** The channel a committed delivery is announced on. */
export const DELIVERIES_CHANNEL = 'vitrine_webhook_deliveries'

type EventColumns = {
  accountId: string
  ids: string[]
  types: string[]
  /** JSON texts. */
  data: string[]
  createdAt: Date[]
  conditional: boolean[]
}

/**
 * The events insert for one `keep` condition (kit/template.ts). The rows come as arrays: one
 * text for any number of them.
 */
const eventInsert = fragmentTemplatePer(
  (
    _,
    v: EventColumns,
    keep: RawBuilder<boolean>,
  ) => sql`INSERT INTO events (id, account_id, type, data, created_at)
    SELECT id, ${v.accountId}::uuid, type, data, created_at
    FROM unnest(${v.ids}::uuid[], ${v.types}::text[], ${v.data}::jsonb[],
      ${v.createdAt}::timestamptz[], ${v.conditional}::boolean[])
      AS v (id, type, data, created_at, conditional)
    WHERE NOT conditional OR (${keep})
    RETURNING id, account_id, type, data, created_at`,
)

/**
 * A pending delivery per active endpoint subscribed to each event of the part `event`. Born
 * claimed (handoff.ts) when `$2` (the lease) is given and its endpoint is not in `$3` (full);
 * otherwise it wakes every worker on `$1` (PostgreSQL sends one such per channel and
 * transaction, at commit).
 */
const QUEUE_DELIVERIES_SQL = `INSERT INTO webhook_deliveries AS d
    (id, event_id, endpoint_id, account_id, status, next_attempt_at, created_at, locked_until, attempts)
  SELECT gen_random_uuid(), event.id, e.id, e.account_id, 'pending', event.created_at,
    event.created_at, born.until, CASE WHEN born.until IS NULL THEN 0 ELSE 1 END
  FROM event
  JOIN webhook_endpoints e ON e.account_id = event.account_id AND event.type = ANY (e.events)
  CROSS JOIN LATERAL (SELECT CASE WHEN e.id <> ALL ($3::uuid[]) THEN $2::timestamptz END AS until) born
  WHERE e.is_active AND e.deleted_at IS NULL
  RETURNING d.id, d.attempts, d.max_attempts, d.endpoint_id, d.account_id, d.event_id,
    d.locked_until, CASE WHEN d.locked_until IS NULL THEN pg_notify($1, '') END AS woke`

/**
 * The deliveries the part `queued` wrote born, whole (as `ClaimedDelivery` JSON, null: none),
 * read at the statement's end: everything their sends need, so nothing is read back.
 */
const BORN_DELIVERIES = `(SELECT json_agg(json_build_object('id', d.id, 'attempts', d.attempts,
    'max_attempts', d.max_attempts, 'endpoint_id', d.endpoint_id, 'account_id', d.account_id,
    'event_id', d.event_id, 'type', ev.type, 'data', ev.data,
    'event_created_at', ev.created_at, 'url', ep.url, 'secret_sealed', ep.secret_sealed,
    'previous_secret_sealed', ep.previous_secret_sealed,
    'previous_secret_expires_at', ep.previous_secret_expires_at,
    'is_active', ep.is_active, 'deleted_at', ep.deleted_at, 'locked_until', d.locked_until))
  FROM "queued" d JOIN "event" ev ON ev.id = d.event_id
  JOIN webhook_endpoints ep ON ep.id = d.endpoint_id
  WHERE d.locked_until IS NOT NULL)`

/** A delivery born claimed, with the end of its lease. */
export type BornDelivery = ClaimedDelivery & { locked_until: Date }

type DateColumns = 'event_created_at' | 'previous_secret_expires_at' | 'deleted_at' | 'locked_until'
/** A born delivery as JSON carries it: its dates as text. */
type BornJson = Omit<BornDelivery, DateColumns> & { [C in DateColumns]: string | null }

/** A born-claimed delivery as its statement hands it over. */
function bornDelivery(row: BornJson): BornDelivery {
  const date = (text: string | null) => (text === null ? null : new Date(text))
  return {
    ...row,
    event_created_at: new Date(row.event_created_at!),
    previous_secret_expires_at: date(row.previous_secret_expires_at),
    deleted_at: date(row.deleted_at),
    locked_until: new Date(row.locked_until!),
  }
}

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

  listEndpoints(db: Executor, accountId: string, window: PageWindow) {
    return db
      .selectFrom('webhook_endpoints')
      .selectAll()
      .where('account_id', '=', accountId)
      .where('deleted_at', 'is', null)
      .$call(newestFirst(window, { table: 'webhook_endpoints', scope: { account_id: accountId } }))
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

  /**
   * The outbox write of events, as parts of one statement (kit/statement.ts): the event rows
   * (those with `conditional` set kept only when `keep` holds there, e.g. when a grant written
   * beside them was new), a pending delivery for each active endpoint subscribed to each type,
   * born claimed by `birth` where it can be (handoff.ts), and, only if one was queued
   * unclaimed, the wake-up notifyWorkers sends.
   */
  eventParts(
    accountId: string,
    rows: EventRow[],
    keep: RawBuilder<boolean> = ALWAYS,
    birth: Birth | null = null,
  ): Part[] {
    return [
      {
        name: 'event',
        query: eventInsert(keep)({
          accountId,
          ids: rows.map((row) => row.id),
          types: rows.map((row) => row.type),
          data: rows.map((row) => row.data),
          createdAt: rows.map((row) => row.created_at),
          conditional: rows.map((row) => row.conditional),
        }),
      },
      {
        name: 'queued',
        query: {
          sql: QUEUE_DELIVERIES_SQL,
          parameters: [DELIVERIES_CHANNEL, birth?.until ?? null, birth?.fullEndpoints ?? []],
        },
        ...(birth && {
          onCommit: {
            value: BORN_DELIVERIES,
            take: (born) => born && birth.take((born as BornJson[]).map(bornDelivery)),
          },
        }),
      },
    ]
  },

  /** Wakes every delivery worker when the caller's transaction commits (not before). */
  async notifyWorkers(db: Executor) {
    await sql`SELECT pg_notify(${DELIVERIES_CHANNEL}, '')`.execute(db)
  },

  /**
   * Leases due deliveries fairly and returns everything their attempts need, in one statement.
   * It walks the endpoints that have pending work (a loose index scan, one probe per endpoint)
   * and takes from each at most its window (`perEndpoint`, or the endpoint's own in `windows`,
   * see concurrency.ts) minus what is already in flight there, oldest first. A slow endpoint's backlog therefore never fills a batch while another endpoint
   * waits. Two workers claiming at the same instant may each fill the same endpoint's room
   * once; the UPDATE's guard still leases every row to one of them. `attempts` after the claim
   * is the claim's fencing token: only the holder of the latest claim may settle the delivery.
   */
  async claimDue(
    db: Executor,
    opts: {
      now: Date
      limit: number
      perEndpoint: number
      leaseMs: number
      windows?: { endpointIds: string[]; limits: number[] }
    },
  ): Promise<ClaimedDelivery[]> {
    const { now, limit, perEndpoint } = opts
    const windows = opts.windows ?? { endpointIds: [], limits: [] }
    const leaseUntil = new Date(now.getTime() + opts.leaseMs)
    const result = await sql<ClaimedDelivery>`
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
          LIMIT GREATEST(0, COALESCE(
            (SELECT w.cap FROM unnest(${windows.endpointIds}::uuid[], ${windows.limits}::int[])
              AS w (endpoint_id, cap) WHERE w.endpoint_id = q.endpoint_id),
            ${perEndpoint}::int) - (
            SELECT count(*) FROM webhook_deliveries f
            WHERE f.endpoint_id = q.endpoint_id AND f.status = 'pending'
              AND f.locked_until > ${now}))
        ) pick
        WHERE q.endpoint_id IS NOT NULL
        ORDER BY pick.next_attempt_at
        LIMIT ${limit}
      ), claimed AS (
        UPDATE webhook_deliveries d
        SET locked_until = ${leaseUntil}, attempts = d.attempts + 1
        FROM picked
        WHERE d.id = picked.id AND d.status = 'pending'
          AND (d.locked_until IS NULL OR d.locked_until <= ${now})
        RETURNING d.id, d.attempts, d.max_attempts, d.endpoint_id, d.account_id, d.event_id
      )
      SELECT c.id, c.attempts, c.max_attempts, c.endpoint_id, c.account_id, c.event_id,
        ev.type, ev.data, ev.created_at AS event_created_at,
        ep.url, ep.secret_sealed, ep.previous_secret_sealed, ep.previous_secret_expires_at,
        ep.is_active, ep.deleted_at
      FROM claimed c
      JOIN events ev ON ev.id = c.event_id
      JOIN webhook_endpoints ep ON ep.id = c.endpoint_id`.execute(db)
    return result.rows
  },

  /**
   * Settles successful attempts, many in one statement (so no transaction is needed around it):
   * logs every attempt, marks delivered the deliveries whose claim is still the current one
   * (`attempts` unchanged since the claim), and clears their endpoints' failing streak.
   * Returns the ids settled; a stale claim's delivery is left to its newer holder.
   */
  async recordSuccesses(db: Executor, rows: SuccessRow[]): Promise<Set<string>> {
    if (!rows.length) return new Set()
    // One array per column: the statement's text (and what PostgreSQL parses) stays the same
    // size whatever the batch; a VALUES list of 200 rows was ~30 KB of SQL to send and parse.
    const column = <T>(pick: (r: SuccessRow) => T) => rows.map(pick)
    const result = await sql<{ id: string }>`
      WITH v AS (
        SELECT * FROM unnest(
          ${column((r) => r.attemptId)}::uuid[], ${column((r) => r.deliveryId)}::uuid[],
          ${column((r) => r.endpointId)}::uuid[], ${column((r) => r.attempt)}::int[],
          ${column((r) => r.statusCode)}::int[], ${column((r) => r.durationMs)}::int[],
          ${column((r) => r.responseBody)}::text[], ${column((r) => r.at)}::timestamptz[]
        ) AS v (attempt_id, delivery_id, endpoint_id, attempt, code, duration, body, at)
      ), logged AS (
        INSERT INTO webhook_attempts
          (id, delivery_id, attempt, status_code, duration_ms, error, response_body, created_at)
        SELECT attempt_id, delivery_id, attempt, code, duration, NULL, body, at FROM v
      ), healthy AS (
        UPDATE webhook_endpoints e SET failing_since = NULL
        WHERE e.id IN (SELECT endpoint_id FROM v) AND e.failing_since IS NOT NULL
      )
      UPDATE webhook_deliveries d
      SET status = 'delivered', last_status_code = v.code, last_error = NULL,
        delivered_at = v.at, locked_until = NULL
      FROM v
      WHERE d.id = v.delivery_id AND d.attempts = v.attempt AND d.status = 'pending'
      RETURNING d.id`.execute(db)
    return new Set(result.rows.map((r) => r.id))
  },

  insertAttempts(db: Executor, rows: Insertable<DB['webhook_attempts']>[]) {
    return db.insertInto('webhook_attempts').values(rows).execute()
  },

  /** Settles one attempt's delivery if `attempt` is still its current claim; false when stale. */
  async finishDelivery(
    db: Executor,
    claim: { id: string; attempt: number },
    patch: {
      status: 'pending' | 'failed'
      next_attempt_at?: Date
      last_status_code: number | null
      last_error: string | null
    },
  ): Promise<boolean> {
    const result = await db
      .updateTable('webhook_deliveries')
      .set({ ...patch, locked_until: null })
      .where('id', '=', claim.id)
      .where('attempts', '=', claim.attempt)
      .where('status', '=', 'pending')
      .executeTakeFirst()
    return result.numUpdatedRows > 0n
  },

  listDeliveries(db: Executor, endpointId: string, window: PageWindow) {
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
      .$call(
        newestFirst(window, {
          table: 'webhook_deliveries',
          alias: 'd',
          scope: { endpoint_id: endpointId },
        }),
      )
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
