import type { Clock } from '../../kit/clock.ts'
import { decrypt, deriveKey, encrypt } from '../../kit/crypto.ts'
import type { Executor, Tx } from '../../kit/db.ts'
import { BadRequest, NotFound } from '../../kit/errors.ts'
import { type PageQuery, pageWindow, toPage } from '../../kit/http/pagination.ts'
import { iso } from '../../kit/http/schemas.ts'
import { uuidv7 } from '../../kit/ids.ts'
import type { EventType } from './events.ts'
import { webhooksRepo as repo } from './repo.ts'
import { generateWebhookSecret } from './signature.ts'
import { checkWebhookUrl } from './url-guard.ts'

type Ctx = { clock: Clock }
type SecretCtx = Ctx & { appSecret: string }

/**
 * Writes an event to the outbox in the caller's transaction and queues one delivery for each
 * active endpoint of the account subscribed to its type. Rolled back with the caller.
 */
export async function emitEvent(
  tx: Tx,
  ctx: Ctx,
  input: { accountId: string; type: EventType; data: Record<string, unknown> },
): Promise<string> {
  const now = ctx.clock.now()
  const id = uuidv7(now.getTime())
  await repo.insertEvent(tx, {
    id,
    account_id: input.accountId,
    type: input.type,
    data: JSON.stringify(input.data),
    created_at: now,
  })
  await repo.queueDeliveries(tx, { id, accountId: input.accountId, type: input.type }, now)
  return id
}

const secretKey = (ctx: { appSecret: string }) => deriveKey(ctx.appSecret, 'webhook-secrets')

export const sealSecret = (ctx: { appSecret: string }, secret: string) =>
  encrypt(secretKey(ctx), secret)
export const openSecret = (ctx: { appSecret: string }, sealed: string) =>
  decrypt(secretKey(ctx), sealed)

export function endpointOut(row: {
  id: string
  url: string
  events: string[]
  is_active: boolean
  created_at: Date
}) {
  return {
    id: row.id,
    url: row.url,
    events: row.events,
    is_active: row.is_active,
    created_at: iso(row.created_at)!,
  }
}

/** Validates the URL (https, public address) before the transaction that stores it. */
export async function assertDeliverableUrl(url: string, allowHttpLoopback: boolean) {
  const check = await checkWebhookUrl(url, allowHttpLoopback)
  if (!check.ok) throw new BadRequest(check.reason)
}

export async function createEndpoint(
  tx: Tx,
  ctx: SecretCtx,
  input: { accountId: string; url: string; events: EventType[] },
) {
  const now = ctx.clock.now()
  const secret = generateWebhookSecret()
  const row = await repo.insertEndpoint(tx, {
    id: uuidv7(now.getTime()),
    account_id: input.accountId,
    url: input.url,
    events: [...new Set(input.events)],
    secret_sealed: sealSecret(ctx, secret),
    created_at: now,
    updated_at: now,
  })
  return { endpoint: endpointOut(row), secret }
}

export async function listEndpoints(db: Executor, accountId: string, query: PageQuery) {
  const rows = await repo.listEndpoints(db, accountId, pageWindow(query))
  return toPage(rows, query, endpointOut)
}

export async function getEndpoint(db: Executor, accountId: string, id: string) {
  const row = await repo.findEndpoint(db, accountId, id)
  if (!row) throw new NotFound('Webhook não encontrado')
  return endpointOut(row)
}

export async function deleteEndpoint(tx: Tx, ctx: Ctx, accountId: string, id: string) {
  const result = await repo.softDeleteEndpoint(tx, accountId, id, ctx.clock.now())
  if (!result.numUpdatedRows) throw new NotFound('Webhook não encontrado')
}

/** The delivery log of one endpoint: each delivery with every attempt. */
export async function listDeliveries(
  db: Executor,
  accountId: string,
  endpointId: string,
  query: PageQuery,
) {
  await getEndpoint(db, accountId, endpointId)
  const rows = await repo.listDeliveries(db, endpointId, pageWindow(query))
  const attempts = await repo.attemptsOf(
    db,
    rows.slice(0, query.limit).map((r) => r.id),
  )
  return toPage(rows, query, (row) => ({
    id: row.id,
    event_id: row.event_id,
    event: row.type,
    status: row.status,
    attempts: attempts
      .filter((a) => a.delivery_id === row.id)
      .map((a) => ({
        attempt: a.attempt,
        status_code: a.status_code,
        duration_ms: a.duration_ms,
        error: a.error,
        response_body: a.response_body,
        created_at: iso(a.created_at)!,
      })),
    next_attempt_at: row.status === 'pending' ? iso(row.next_attempt_at) : null,
    delivered_at: iso(row.delivered_at),
    created_at: iso(row.created_at)!,
  }))
}
