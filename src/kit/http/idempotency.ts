// Optional `Idempotency-Key` on every POST of the API (SPEC §1): the same key and body within
// 24 h replay the first response; the same key with another body is a 422.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { Clock } from '../clock.ts'
import { sha256Hex } from '../crypto.ts'
import type { Database } from '../db.ts'

const HEADER = 'idempotency-key'
const WINDOW_MS = 24 * 3_600_000

declare module 'fastify' {
  interface FastifyRequest {
    idempotency?: { owner: string; key: string }
  }
}

/**
 * Keys belong to the credential the route's guard resolved (this hook runs after it): an API
 * key's id, so a revoked key is a 401 before any replay, or a session's token hash. Anonymous
 * callers of public routes (checkout) are told apart by client IP — `request.ip`, which
 * follows X-Forwarded-For only with TRUST_PROXY — so one buyer's key never replays another
 * buyer's order. Buyers behind one carrier IP could still meet on the same key, which only a
 * random key (a UUID, as clients send) makes unlikely; an IP is all an anonymous caller has.
 */
function ownerOf(request: FastifyRequest): string {
  return request.actor?.credential ?? `ip:${request.ip}`
}

function retryLater(reply: FastifyReply, error: string) {
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
    const owner = ownerOf(request)
    const requestHash = sha256Hex(`${request.url}\n${JSON.stringify(request.body ?? null)}`)
    const now = clock.now()
    const claim = () =>
      db
        .insertInto('idempotency_keys')
        .values({ owner, key, request_hash: requestHash, created_at: now })
        .onConflict((oc) => oc.doNothing())
        .returning('key')
        .executeTakeFirst()
    // A new key (the usual case) is one statement; an expired one is cleared and claimed anew.
    let claimed = await claim()
    if (!claimed) {
      const { numDeletedRows } = await db
        .deleteFrom('idempotency_keys')
        .where('owner', '=', owner)
        .where('key', '=', key)
        .where('created_at', '<', new Date(now.getTime() - WINDOW_MS))
        .executeTakeFirstOrThrow()
      if (numDeletedRows > 0n) claimed = await claim()
    }
    if (claimed) {
      request.idempotency = { owner, key }
      return
    }
    const first = await db
      .selectFrom('idempotency_keys')
      .selectAll()
      .where('owner', '=', owner)
      .where('key', '=', key)
      .executeTakeFirst()
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
    reply.header('idempotent-replayed', 'true')
    return reply.code(first.response_status).type('application/json').send(first.response_body)
  })

  app.addHook('onSend', async (request, reply, payload) => {
    const idem = request.idempotency
    if (!idem) return payload
    const where = db
      .updateTable('idempotency_keys')
      .where('owner', '=', idem.owner)
      .where('key', '=', idem.key)
    if (reply.statusCode >= 500) {
      // A crash is not an answer: let the client retry with the same key.
      await db
        .deleteFrom('idempotency_keys')
        .where('owner', '=', idem.owner)
        .where('key', '=', idem.key)
        .execute()
    } else {
      await where
        .set({
          response_status: reply.statusCode,
          response_body: typeof payload === 'string' ? payload : null,
        })
        .execute()
    }
    return payload
  })
}
