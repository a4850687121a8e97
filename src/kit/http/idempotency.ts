// Optional `Idempotency-Key` on every POST of the API (SPEC §1): the same key and body within
// 24 h replay the first response; the same key with another body is a 422.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { type ExpressionBuilder, sql } from 'kysely'
import type { Clock } from '../clock.ts'
import { sha256Hex } from '../crypto.ts'
import type { Database, Db } from '../db.ts'
import type { DB } from '../db-schema.ts'
import { UnknownOutcome } from '../errors.ts'
import { template } from '../template.ts'

const HEADER = 'idempotency-key'
export const WINDOW_MS = 24 * 3_600_000
/** Expired keys deleted a statement (kit/http/idempotency-pruner.ts): short transactions. */
const PRUNE_BATCH = 1_000

declare module 'fastify' {
  interface FastifyRequest {
    /** `keep`: the answer stays the key's even as a 5xx (an UnknownOutcome). */
    idempotency?: { owner: string; key: string; keep?: boolean }
  }
}

/**
 * Keys belong to the credential the route's guard resolved (this hook runs after it): an API
 * key's id, so a revoked key is a 401 before any replay, or a session's token hash. Anonymous
 * callers of public routes (checkout) are told apart by client IP — `request.ip`, which
 * follows X-Forwarded-For only with TRUST_PROXY — so one buyer's key never replays another
 * buyer's order. Buyers behind one carrier IP could still meet on the same key, which only a
 * random key (a UUID, as clients send) makes unlikely; an IP is all an anonymous caller has.
 * The same request under the same key from another IP is the exception (`ANONYMOUS`, below).
 */
function ownerOf(request: FastifyRequest): { owner: string; anonymous: boolean } {
  const credential = request.actor?.credential
  return credential
    ? { owner: credential, anonymous: false }
    : { owner: `ip:${request.ip}`, anonymous: true }
}

/** A 409 that says when to come back: the key's request is still being handled. */
export function retryLater(reply: FastifyReply, error: string) {
  return reply.code(409).header('retry-after', 1).send({ error })
}

/**
 * Keys are written on the relaxed-commit pool (kit/db.ts), with no log flush of their own: a
 * claim is in the log before the work it guards begins, so whatever that work commits durably
 * carries the claim with it; a database crash can lose only a claim whose work was lost too (a
 * retry runs afresh), or a stored answer (a retry then hears "in progress", as after a crash of
 * the service mid-request). With the hosted checkout sending a key on every order, their two
 * synchronous flushes were 1.4 more WAL syncs a purchase (0.7 → 2.1) on launch day.
 */
export function registerIdempotency(
  app: FastifyInstance,
  deps: { database: Database; clock: Clock },
): void {
  const { clock } = deps
  const db = deps.database.relaxed

  app.addHook('preHandler', async (request: FastifyRequest, reply: FastifyReply) => {
    if (request.method !== 'POST' || !request.url.startsWith('/api/')) return
    const key = request.headers[HEADER]
    if (typeof key !== 'string' || !key) return
    if (key.length > 255) {
      return reply.code(400).send({ error: 'Idempotency-Key is too long' })
    }
    const { owner, anonymous } = ownerOf(request)
    const requestHash = sha256Hex(`${request.url}\n${JSON.stringify(request.body ?? null)}`)
    const now = clock.now()
    const entry: Entry = {
      owner,
      key,
      requestHash,
      now,
      expired: new Date(now.getTime() - WINDOW_MS),
      anonymous,
    }
    // A new key (the usual case) is one statement; an expired one is cleared and claimed anew.
    let claimed = await claimKey(db, entry)
    if (!claimed && (await dropExpiredKey(db, entry))) claimed = await claimKey(db, entry)
    if (claimed) {
      request.idempotency = { owner, key }
      return
    }
    const first = await findKey(db, entry)
    // The two "come back" answers say when (the hosted checkout retries them by itself).
    if (!first) return retryLater(reply, 'Idempotency-Key is being reset, retry')
    if (first.request_hash !== requestHash) {
      return reply
        .code(422)
        .send({ error: 'Idempotency-Key was already used with a different request' })
    }
    if (first.response_status === null) {
      return retryLater(reply, 'A request with this Idempotency-Key is still in progress')
    }
    return replay(reply, first.response_status, first.response_body)
  })

  app.addHook('onError', async (request, _reply, error) => {
    if (error instanceof UnknownOutcome && request.idempotency) request.idempotency.keep = true
  })

  app.addHook('onSend', async (request, reply, payload) => {
    const idem = request.idempotency
    if (!idem) return payload
    if (reply.statusCode >= 500 && !idem.keep) {
      // A crash is not an answer: let the client retry with the same key. An unknown outcome is.
      await db
        .deleteFrom('idempotency_keys')
        .where('owner', '=', idem.owner)
        .where('key', '=', idem.key)
        .execute()
    } else {
      await storeAnswer(db, {
        ...idem,
        status: reply.statusCode,
        body: typeof payload === 'string' ? payload : null,
      })
    }
    return payload
  })
}

/** A stored answer sent again as it was first given. */
export function replay(reply: FastifyReply, status: number, body: string | null) {
  reply.header('idempotent-replayed', 'true')
  return reply.code(status).type('application/json').send(body)
}

/** Deletes up to a batch of keys claimed before `before`; returns how many. */
export async function pruneIdempotencyKeys(db: Db, before: Date): Promise<number> {
  const { rows } = await sql<{ pruned: number }>`
    WITH gone AS (
      DELETE FROM idempotency_keys WHERE (owner, key) IN (
        SELECT owner, key FROM idempotency_keys WHERE created_at < ${before} LIMIT ${PRUNE_BATCH}
      )
      RETURNING 1
    )
    SELECT count(*)::int AS pruned FROM gone`.execute(db)
  return rows[0]?.pruned ?? 0
}

interface Entry {
  owner: string
  key: string
  requestHash: string
  now: Date
  expired: Date
  anonymous: boolean
}

/**
 * An anonymous caller's key is theirs by IP, but a buyer's IP changes when their phone moves
 * from Wi-Fi to 4G — often the very reason an answer was lost. So the same key with the same
 * body from another anonymous IP is the same request: a unique index over anonymous keys and
 * bodies (migration 0033) refuses its claim, and it replays (or waits for) the first instead
 * of running again, however close together the two arrive. Matching the body as well keeps
 * every other buyer apart, as before: another body under the same key is theirs alone.
 */
const ANONYMOUS = sql`owner LIKE 'ip:%'`

/**
 * The statements of every keyed POST, compiled once (kit/template.ts). Under load each shares its
 * transaction with other statements on the relaxed pool (kit/pg-coalescer.ts): the rows are
 * each request's own, so only one key in flight twice could make two batches wait on each other.
 */
const claim = template(
  (q, v: Entry) =>
    q
      .insertInto('idempotency_keys')
      .values({ owner: v.owner, key: v.key, request_hash: v.requestHash, created_at: v.now })
      // Any unique index: this owner's key, or (anonymous) the same request from elsewhere.
      .onConflict((oc) => oc.doNothing())
      .returning('key'),
  { together: true },
)
const storeAnswer = template(
  (q, v: { owner: string; key: string; status: number; body: string | null }) =>
    q
      .updateTable('idempotency_keys')
      .set({ response_status: v.status, response_body: v.body })
      .where('owner', '=', v.owner)
      .where('key', '=', v.key),
  { together: true },
)

/** Claims the key for this request; undefined when it is taken (or the same request ran elsewhere). */
async function claimKey(db: Db, e: Entry) {
  const [row] = await claim(db, e)
  return row
}

/** Deletes what holds the key past the window (this owner's use, or the same request's elsewhere); whether it did. */
async function dropExpiredKey(db: Db, e: Entry) {
  const { numDeletedRows } = await db
    .deleteFrom('idempotency_keys')
    .where('key', '=', e.key)
    .where('created_at', '<', e.expired)
    .where((eb) => heldBy(eb, e))
    .executeTakeFirstOrThrow()
  return numDeletedRows > 0n
}

/** Rows that hold the key for this request: its owner's, or for an anonymous caller the same request's elsewhere. */
function heldBy(eb: ExpressionBuilder<DB, 'idempotency_keys'>, e: Entry) {
  if (!e.anonymous) return eb('owner', '=', e.owner)
  return eb.or([
    eb('owner', '=', e.owner),
    eb.and([eb('request_hash', '=', e.requestHash), sql<boolean>`${ANONYMOUS}`]),
  ])
}

/** The key's first use: this owner's, or for an anonymous caller the same request's elsewhere. */
function findKey(db: Db, e: Entry) {
  return db
    .selectFrom('idempotency_keys')
    .selectAll()
    .where('key', '=', e.key)
    .where((eb) => heldBy(eb, e))
    .orderBy(sql`owner = ${e.owner}`, 'desc')
    .limit(1)
    .executeTakeFirst()
}

/**
 * What an anonymous caller's key holds within the window, whoever's IP claimed it: its answer,
 * or a claim still without one (`status` null); undefined when no request carried it. For the
 * hosted checkout coming back to an order whose answer it lost (checkout/routes.ts): only a key
 * of 128 random bits may be looked up this way, as the key alone proves the asker sent it.
 */
export async function anonymousAnswer(
  db: Db,
  key: string,
  now: Date,
): Promise<{ status: number | null; body: string | null } | undefined> {
  const row = await db
    .selectFrom('idempotency_keys')
    .select(['response_status', 'response_body'])
    .where('key', '=', key)
    .where(sql<boolean>`${ANONYMOUS}`)
    .where('created_at', '>=', new Date(now.getTime() - WINDOW_MS))
    // An answered use first (the same request from a second IP waits on the first's).
    .orderBy(sql`response_status IS NULL`)
    .limit(1)
    .executeTakeFirst()
  return row && { status: row.response_status, body: row.response_body }
}
