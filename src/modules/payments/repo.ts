import { type Insertable, type QueryCreator, type RawBuilder, sql } from 'kysely'
import type { Executor } from '../../kit/db.ts'
import type { DB, GatewayCheckKind } from '../../kit/db-schema.ts'
import { type Part, writeParts } from '../../kit/statement.ts'
import { type Fragment, fragmentTemplate, runFragment, template } from '../../kit/template.ts'

type CheckRow = { id: string | RawBuilder<string>; kind: GatewayCheckKind; at: Date; now: Date }

type OnConflict = {
  next_attempt_at: Date | RawBuilder<Date>
  attempts: number | RawBuilder<number>
} | null

/** A check made pending at `row.at`; `onConflict` says what an existing one becomes (null: kept). */
function checkUpsert(qb: QueryCreator<DB>, row: CheckRow, onConflict: OnConflict) {
  return qb
    .insertInto('gateway_checks')
    .values({
      id: row.id,
      kind: row.kind,
      status: 'pending',
      next_attempt_at: row.at,
      created_at: row.now,
    })
    .onConflict((oc) =>
      onConflict
        ? oc.column('id').doUpdateSet({ status: 'pending', settled_at: null, ...onConflict })
        : oc.column('id').doNothing(),
    )
}

type CheckValues = { id: string; kind: GatewayCheckKind; at: Date; now: Date }

/** The check upserts a purchase and the workers make, each compiled once (kit/template.ts). */
const checkUpserts = {
  /** An existing check is kept as it is. */
  keep: fragmentTemplate((q, v: CheckValues) => checkUpsert(q, v, null)),
  /** An existing check is due at `at` with a fresh count of attempts. */
  restart: fragmentTemplate((q, v: CheckValues) =>
    checkUpsert(q, v, { next_attempt_at: v.at, attempts: 0 }),
  ),
  /** An open check comes forward to `at` if that is sooner; a settled one opens afresh. */
  bringForward: fragmentTemplate((q, v: CheckValues) =>
    checkUpsert(q, v, {
      next_attempt_at: sql<Date>`CASE WHEN gateway_checks.status = 'pending'
        THEN least(gateway_checks.next_attempt_at, excluded.next_attempt_at)
        ELSE excluded.next_attempt_at END`,
      attempts: sql<number>`CASE WHEN gateway_checks.status = 'pending'
        THEN gateway_checks.attempts ELSE 0 END`,
    }),
  ),
}

/** An open check settled (a check already settled keeps what settled it), compiled once. */
const checkSettle = fragmentTemplate((q, v: { id: string; note: string; at: Date }) =>
  q
    .updateTable('gateway_checks')
    .set({ status: 'settled', note: v.note, settled_at: v.at, locked_until: null })
    .where('id', '=', v.id)
    .where('status', '=', 'pending'),
)

type ChargeRow = Insertable<DB['charges']> & { order_id: string }

/** A charge's insert as a part, compiled once (a PIX's checkout writes it with its order). */
const chargeInsert = fragmentTemplate((q, v: ChargeRow) =>
  // A template's builder names every value (kit/template.ts).
  q.insertInto('charges').values({
    id: v.id,
    order_id: v.order_id,
    gateway: v.gateway,
    gateway_charge_id: v.gateway_charge_id,
    method: v.method,
    amount_cents: v.amount_cents,
    status: v.status,
    pix_copy_paste: v.pix_copy_paste,
    pix_expires_at: v.pix_expires_at,
    saved_card: v.saved_card,
    created_at: v.created_at,
  }),
)

type CallbackRow = Insertable<DB['payment_callbacks']>

/** In a callback's statement: its inbox row is new (not a repeated notification). */
const inboxIsNew = sql<boolean>`EXISTS (SELECT 1 FROM inbox)`

/** recordCallback's parts, compiled once. */
const callback = {
  inbox: fragmentTemplate((q, v: CallbackRow) =>
    q
      .insertInto('payment_callbacks')
      .values({
        id: v.id,
        gateway: v.gateway,
        gateway_event_id: v.gateway_event_id,
        gateway_charge_id: v.gateway_charge_id,
        action: v.action,
        outcome: v.outcome,
        payload: v.payload,
        received_at: v.received_at,
      })
      .onConflict((oc) => oc.columns(['gateway', 'gateway_event_id']).doNothing())
      .returning('id'),
  ),
  charge: fragmentTemplate((q, v: { id: string; status: DB['charges']['status'] }) =>
    q.updateTable('charges').set({ status: v.status }).where('id', '=', v.id).where(inboxIsNew),
  ),
  select: { sql: 'SELECT id FROM inbox', parameters: [] } satisfies Fragment,
}

/**
 * A `paid` callback's happy path in one statement (paid-at-once.ts): the charge locked only when
 * it is the gateway's, its order pending at the amount the gateway holds and the notification
 * new (`locked`, read by the later parts); the order marked paid by them (the orders module's
 * part, `paid`); then the inbox row and the charge's status, only beside a paid order.
 */
const paidAtOnce = {
  locked: fragmentTemplate(
    (_, v: { gateway: string; gatewayChargeId: string; amountCents: number; eventId: string }) =>
      sql`SELECT c.id, c.order_id FROM charges c JOIN orders o ON o.id = c.order_id
        WHERE c.gateway = ${v.gateway} AND c.gateway_charge_id = ${v.gatewayChargeId}
          AND c.amount_cents = ${v.amountCents} AND o.amount_cents = ${v.amountCents}
          AND o.status = 'pending'
          AND NOT EXISTS (SELECT 1 FROM payment_callbacks pc
            WHERE pc.gateway = ${v.gateway} AND pc.gateway_event_id = ${v.eventId})
        FOR UPDATE OF c`,
  ),
  inbox: fragmentTemplate(
    (_, v: CallbackRow) => sql`INSERT INTO payment_callbacks
        (id, gateway, gateway_event_id, gateway_charge_id, action, outcome, payload, received_at)
      SELECT ${v.id}::uuid, ${v.gateway}::text, ${v.gateway_event_id}::text,
        ${v.gateway_charge_id}::text, ${v.action}::text, ${v.outcome}::text, ${v.payload}::jsonb,
        ${v.received_at}::timestamptz
      FROM paid
      ON CONFLICT (gateway, gateway_event_id) DO NOTHING`,
  ),
  charge: {
    sql: `UPDATE charges SET status = 'paid'
      WHERE id = (SELECT id FROM locked) AND EXISTS (SELECT 1 FROM paid)`,
    parameters: [],
  } satisfies Fragment,
}

/**
 * The order the `locked` part of paidAtOnce names, for the orders' mark-paid part: marked on no
 * other condition, `locked` holds them all.
 */
const lockedChargeOrder = sql<string>`(SELECT order_id FROM locked)`

const chargeForUpdateWithOrder = template((q, v: { gateway: string; gatewayChargeId: string }) =>
  q
    .selectFrom('charges')
    .innerJoin('orders', 'orders.id', 'charges.order_id')
    // What a callback decides with, no more: every column read is parsed on every payment.
    .select([
      'charges.id',
      'charges.order_id',
      'charges.amount_cents',
      'orders.status as order_status',
      'orders.amount_cents as order_amount_cents',
    ])
    .where('charges.gateway', '=', v.gateway)
    .where('charges.gateway_charge_id', '=', v.gatewayChargeId)
    .forUpdate('charges'),
)

/** What a gateway callback did, as its inbox row keeps it. */
export type CallbackOutcome =
  | 'paid'
  | 'expired'
  | 'chargeback'
  | 'duplicate'
  | 'unknown_charge'
  | 'amount_mismatch'
  | 'refund_charged_back'
  | 'failed'
  | 'late_payment_returned'
  | 'late_payment_to_return'
  | 'ignored'

export const paymentsRepo = {
  /** A charge; with `follow`, its order's check scheduled in the same statement. */
  insertCharge(db: Executor, row: Insertable<DB['charges']>, follow?: CheckRow) {
    if (!follow)
      return db.insertInto('charges').values(row).returningAll().executeTakeFirstOrThrow()
    return db
      .with('check', (qb) => checkUpsert(qb, follow, { next_attempt_at: follow.at, attempts: 0 }))
      .insertInto('charges')
      .values(row)
      .returningAll()
      .executeTakeFirstOrThrow()
  },

  /** A charge as a part of its order's statement (kit/statement.ts). */
  chargePart(row: ChargeRow): Part {
    return { name: 'charge', query: chargeInsert(row) }
  },

  /** The status of the order a charge belongs to, in one lookup; undefined for an unknown charge. */
  orderOfCharge(db: Executor, gateway: string, gatewayChargeId: string) {
    return db
      .selectFrom('charges')
      .innerJoin('orders', 'orders.id', 'charges.order_id')
      .select(['orders.id', 'orders.status'])
      .where('charges.gateway', '=', gateway)
      .where('charges.gateway_charge_id', '=', gatewayChargeId)
      .executeTakeFirst()
  },

  /**
   * Locks the charge so concurrent callbacks for it queue up instead of racing, and reads its
   * order's state in the same statement: what a callback needs to decide. The order row is
   * read, not locked (the charge comes first in the lock order).
   */
  async findChargeForUpdateWithOrder(db: Executor, gateway: string, gatewayChargeId: string) {
    const [row] = await chargeForUpdateWithOrder(db, { gateway, gatewayChargeId })
    return row
  },

  /**
   * Locks the charges of these orders (other workers skip them) and returns the orders that
   * may move now: those whose charges this caller locked, and those with no charge at all.
   */
  async lockOrdersByCharge(db: Executor, orderIds: string[]): Promise<string[]> {
    if (!orderIds.length) return []
    const locked = await db
      .selectFrom('charges')
      .select('order_id')
      .where('order_id', 'in', orderIds)
      .orderBy('id')
      .forUpdate()
      .skipLocked()
      .execute()
    const charged = await db
      .selectFrom('charges')
      .select('order_id')
      .where('order_id', 'in', orderIds)
      .execute()
    const mine = new Set(locked.map((r) => r.order_id))
    const withCharge = new Set(charged.map((r) => r.order_id))
    return orderIds.filter((id) => mine.has(id) || !withCharge.has(id))
  },

  setChargeStatus(db: Executor, id: string, status: DB['charges']['status']) {
    return db.updateTable('charges').set({ status }).where('id', '=', id).execute()
  },

  latestChargeForUpdate(db: Executor, orderId: string) {
    return db
      .selectFrom('charges')
      .selectAll()
      .where('order_id', '=', orderId)
      .orderBy('created_at', 'desc')
      .limit(1)
      .forUpdate()
      .executeTakeFirst()
  },

  /**
   * Locks an order and returns it with the gateway id of its latest charge, in one statement
   * (recording a charge needs both; it reads the orders table from here to save a round trip).
   */
  lockOrderWithCharge(db: Executor, orderId: string) {
    return db
      .selectFrom('orders')
      .selectAll('orders')
      .select((eb) =>
        eb
          .selectFrom('charges')
          .select('charges.gateway_charge_id')
          .whereRef('charges.order_id', '=', 'orders.id')
          .orderBy('charges.created_at', 'desc')
          .limit(1)
          .as('known_charge_id'),
      )
      .where('orders.id', '=', orderId)
      .forUpdate()
      .executeTakeFirst()
  },

  latestChargeOf(db: Executor, orderId: string) {
    return db
      .selectFrom('charges')
      .selectAll()
      .where('order_id', '=', orderId)
      .orderBy('created_at', 'desc')
      .limit(1)
      .executeTakeFirst()
  },

  /**
   * A callback in the inbox (unique per gateway event: a repeat is a no-op) and, only when it
   * is new, its charge's new status, in one statement; the inbox row's id, or undefined.
   */
  async recordCallback(
    db: Executor,
    row: CallbackRow,
    charge?: { id: string; status: DB['charges']['status'] },
  ) {
    const parts = this.callbackParts(row, charge)
    const [recorded] = await writeParts<{ id: string }>(db, parts, callback.select)
    return recorded
  },

  /** recordCallback as parts of a statement (kit/statement.ts); `inboxIsNew` tells there. */
  callbackParts(row: CallbackRow, charge?: { id: string; status: DB['charges']['status'] }) {
    const inbox: Part = { name: 'inbox', query: callback.inbox(row) }
    return charge ? [inbox, { name: 'charge', query: callback.charge(charge) }] : [inbox]
  },

  inboxIsNew,

  /** paidAtOnce's parts before the order's (`locked`) and after it (`inbox`, `charge`). */
  paidAtOnceParts(row: CallbackRow, amountCents: number): { before: Part[]; after: Part[] } {
    const charge = {
      gateway: row.gateway,
      gatewayChargeId: row.gateway_charge_id,
      amountCents,
      eventId: row.gateway_event_id,
    }
    return {
      before: [{ name: 'locked', query: paidAtOnce.locked(charge) }],
      after: [
        { name: 'inbox', query: paidAtOnce.inbox(row) },
        { name: 'charge', query: paidAtOnce.charge },
      ],
    }
  },

  lockedChargeOrder,

  /** A new inbox row's outcome, corrected to what its callback turned out to do. */
  async setCallbackOutcome(db: Executor, id: string, outcome: CallbackOutcome) {
    await db.updateTable('payment_callbacks').set({ outcome }).where('id', '=', id).execute()
  },

  expireChargesOf(db: Executor, orderId: string) {
    return db
      .updateTable('charges')
      .set({ status: 'expired' })
      .where('order_id', '=', orderId)
      .where('status', '=', 'pending')
      .execute()
  },

  /**
   * Opens the check of a reference, or brings an open one forward; a settled one opens again
   * with a fresh count of attempts.
   */
  openCheck(db: Executor, row: CheckValues) {
    return runFragment(db, checkUpserts.bringForward(row))
  },

  /** openCheck as a part of a statement (kit/statement.ts). */
  openCheckPart(row: CheckValues) {
    return { name: 'check', query: checkUpserts.bringForward(row) } satisfies Part
  },

  /** Sets the next look of a reference, opening its check or restarting an open one's count. */
  scheduleCheck(db: Executor, row: CheckValues) {
    return runFragment(db, checkUpserts.restart(row))
  },

  /** Opens a check due now for a reference that never had one (a settled one stays settled). */
  openCheckIfNone(db: Executor, row: { id: string; kind: GatewayCheckKind; now: Date }) {
    return runFragment(db, checkUpserts.keep({ ...row, at: row.now }))
  },

  /**
   * Pending orders past their expiry, oldest first, except those whose gateway check is waiting
   * for a later look (an unknown answer backing off): they are not asked again before then.
   * The statuses are literals in the text, not parameters, so that a generic plan can use the
   * partial index (test/kit/db.test.ts).
   */
  async dueForExpiry(db: Executor, now: Date, limit: number) {
    const rows = await db
      .selectFrom('orders')
      .leftJoin('gateway_checks as c', (join) =>
        join.onRef('c.id', '=', 'orders.id').on('c.status', '=', sql.lit('pending')),
      )
      .select('orders.id')
      .where('orders.status', '=', sql.lit('pending'))
      .where('orders.expires_at', '<=', now)
      .where((eb) => eb.or([eb('c.id', 'is', null), eb('c.next_attempt_at', '<=', now)]))
      .orderBy('orders.expires_at')
      .limit(limit)
      .execute()
    return rows.map((r) => r.id)
  },

  settleCheck(db: Executor, id: string, note: string, at: Date) {
    return runFragment(db, checkSettle({ id, note, at }))
  },

  /** settleCheck as a part of a statement (kit/statement.ts). */
  settleCheckPart(id: string, note: string, at: Date) {
    return { name: 'settled_check', query: checkSettle({ id, note, at }) } satisfies Part
  },

  /**
   * Looks again at `at`: after an unknown answer (error), or after a known one that is not the
   * end yet (note: a charge or transfer still pending), which restarts the count of unknown
   * answers in a row that the backoff and the call for a person go by.
   */
  checkAgainAt(db: Executor, id: string, at: Date, why: { error?: string; note?: string }) {
    return db
      .updateTable('gateway_checks')
      .set({
        next_attempt_at: at,
        locked_until: null,
        ...(why.error === undefined ? {} : { last_error: why.error.slice(0, 1000) }),
        ...(why.note === undefined ? {} : { note: why.note, attempts: 0 }),
      })
      .where('id', '=', id)
      .where('status', '=', 'pending')
      .execute()
  },

  findCheck(db: Executor, id: string) {
    return db.selectFrom('gateway_checks').selectAll().where('id', '=', id).executeTakeFirst()
  },
}
