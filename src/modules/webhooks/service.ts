import type { RawBuilder, Selectable } from 'kysely'
import type { Outbox } from '../../deps.ts'
import { decrypt, deriveKey, encrypt } from '../../kit/crypto.ts'
import type { Executor, Tx } from '../../kit/db.ts'
import type { DB } from '../../kit/db-schema.ts'
import { BadRequest, Conflict, NotFound } from '../../kit/errors.ts'
import { type PageQuery, pageWindow, toPage } from '../../kit/http/pagination.ts'
import { iso } from '../../kit/http/schemas.ts'
import { uuidv7 } from '../../kit/ids.ts'
import { writeParts } from '../../kit/statement.ts'
import { accountOwner } from '../accounts/service.ts'
import { queueEmail } from '../email/service.ts'
import { webhookDisabledEmail } from '../email/templates.ts'
import type { EventType } from './events.ts'
import { webhooksRepo as repo } from './repo.ts'
import { generateWebhookSecret } from './signature.ts'
import { checkWebhookUrl } from './url-guard.ts'

/** `deliveryHandoff`: the process's (deps'); a delivery is born claimed only when its worker plans it. */
type Ctx = Pick<Outbox, 'clock' | 'deliveryHandoff'>

export const ENDPOINT_NOT_FOUND = 'Webhook não encontrado'
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
  const [id] = await emitEvents(tx, ctx, input.accountId, [input])
  return id!
}

/** emitEvent for several events of one account, in order, in one statement; returns their ids. */
export async function emitEvents(
  tx: Tx,
  ctx: Ctx,
  accountId: string,
  events: NewEvent[],
): Promise<string[]> {
  const written = eventParts(ctx, accountId, events)
  await writeParts(tx, written.parts)
  return written.ids
}

/**
 * An event to emit; with `keep`, only when that is true in the statement that writes it (the
 * events of one statement share one such condition).
 */
export type NewEvent = {
  type: EventType
  data: Record<string, unknown>
  keep?: RawBuilder<boolean>
}

/**
 * emitEvents as parts of a statement the caller writes with others (kit/statement.ts), in the
 * caller's transaction: the events, their deliveries and the workers' wake-up.
 */
export function eventParts(ctx: Ctx, accountId: string, events: NewEvent[]) {
  // The insert is compiled once per condition; two conditions would need a text of their own.
  const keep = events.find((event) => event.keep)?.keep
  if (events.some((event) => event.keep && event.keep !== keep))
    throw new Error('the events of one statement share one keep condition')
  const rows = events.map((event) => {
    const now = ctx.clock.now()
    return {
      id: uuidv7(now.getTime()),
      type: event.type,
      data: JSON.stringify(event.data),
      created_at: now,
      conditional: event.keep !== undefined,
    }
  })
  const birth = rows.length ? ctx.deliveryHandoff.birth(ctx.clock.now()) : null
  return {
    parts: rows.length ? repo.eventParts(accountId, rows, keep, birth) : [],
    ids: rows.map((row) => row.id),
  }
}

const secretKey = (ctx: { appSecret: string }) => deriveKey(ctx.appSecret, 'webhook-secrets')

export const sealSecret = (ctx: { appSecret: string }, secret: string) =>
  encrypt(secretKey(ctx), secret)
export const openSecret = (ctx: { appSecret: string }, sealed: string) =>
  decrypt(secretKey(ctx), sealed)

type EndpointRow = Selectable<DB['webhook_endpoints']>
/** Why an endpoint is off: by hand, it answered 410, or it failed for 24 h straight. */
type DisabledReason = 'manual' | 'gone' | 'failing'

export function endpointOut(row: EndpointRow) {
  return {
    id: row.id,
    url: row.url,
    events: row.events,
    is_active: row.is_active,
    disabled_reason: row.is_active ? null : (row.disabled_reason as DisabledReason | null),
    created_at: iso(row.created_at)!,
  }
}

/** How long a rotated-out secret keeps signing beside the new one. */
export const ROTATION_OVERLAP_MS = 24 * 3_600_000

/** The secrets that sign a delivery now: the current one, and the previous during the overlap. */
export function liveSecrets(
  ctx: { appSecret: string },
  endpoint: {
    secret_sealed: string
    previous_secret_sealed: string | null
    previous_secret_expires_at: Date | null
  },
  now: Date,
  open: (sealed: string) => string = (sealed) => openSecret(ctx, sealed),
): string[] {
  const secrets = [open(endpoint.secret_sealed)]
  if (endpoint.previous_secret_sealed && endpoint.previous_secret_expires_at! > now) {
    secrets.push(open(endpoint.previous_secret_sealed))
  }
  return secrets
}

/**
 * `openSecret` remembering what it opened (keyed by the sealed text, so a rotation is a new
 * entry): the worker opens each endpoint's secret once, not once per send.
 */
export function cachedSecretOpener(ctx: { appSecret: string }, max = 10_000) {
  const opened = new Map<string, string>()
  return (sealed: string): string => {
    let secret = opened.get(sealed)
    if (secret === undefined) {
      if (opened.size >= max) opened.clear()
      secret = openSecret(ctx, sealed)
      opened.set(sealed, secret)
    }
    return secret
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
  if (!row) throw new NotFound(ENDPOINT_NOT_FOUND)
  return endpointOut(row)
}

/**
 * Changes url, events or is_active. Re-activating clears the disabled reason and the failing
 * streak; events emitted while it was inactive are not replayed (retry them from the log).
 */
export async function patchEndpoint(
  tx: Tx,
  ctx: Ctx,
  accountId: string,
  id: string,
  patch: {
    url?: string | undefined
    events?: EventType[] | undefined
    is_active?: boolean | undefined
  },
) {
  const row = await repo.updateEndpoint(tx, accountId, id, {
    ...(patch.url !== undefined ? { url: patch.url } : {}),
    ...(patch.events ? { events: [...new Set(patch.events)] } : {}),
    ...(patch.is_active !== undefined
      ? {
          is_active: patch.is_active,
          disabled_reason: patch.is_active ? null : 'manual',
          failing_since: null,
        }
      : {}),
    updated_at: ctx.clock.now(),
  })
  if (!row) throw new NotFound(ENDPOINT_NOT_FOUND)
  return endpointOut(row)
}

/** A new secret; the old one keeps signing beside it for 24 h so receivers can switch. */
export async function rotateSecret(tx: Tx, ctx: SecretCtx, accountId: string, id: string) {
  const current = await repo.findEndpoint(tx, accountId, id)
  if (!current) throw new NotFound(ENDPOINT_NOT_FOUND)
  const now = ctx.clock.now()
  const secret = generateWebhookSecret()
  const row = await repo.updateEndpoint(tx, accountId, id, {
    secret_sealed: sealSecret(ctx, secret),
    previous_secret_sealed: current.secret_sealed,
    previous_secret_expires_at: new Date(now.getTime() + ROTATION_OVERLAP_MS),
    updated_at: now,
  })
  return { endpoint: endpointOut(row!), secret }
}

/** A `webhook.test` event delivered to this endpoint only, whatever it subscribes to. */
export async function sendTestEvent(tx: Tx, ctx: Ctx, accountId: string, id: string) {
  const endpoint = await repo.findEndpoint(tx, accountId, id)
  if (!endpoint) throw new NotFound(ENDPOINT_NOT_FOUND)
  const now = ctx.clock.now()
  const eventId = uuidv7(now.getTime())
  await repo.insertEvent(tx, {
    id: eventId,
    account_id: accountId,
    type: 'webhook.test',
    data: JSON.stringify({ endpoint_id: id, message: 'Evento de teste da Vitrine' }),
    created_at: now,
  })
  const delivery = await repo.insertDelivery(tx, {
    id: uuidv7(now.getTime()),
    event_id: eventId,
    endpoint_id: id,
    account_id: accountId,
    status: 'pending',
    next_attempt_at: now,
    created_at: now,
  })
  await repo.notifyWorkers(tx)
  return { event_id: eventId, delivery_id: delivery.id }
}

/** A failed delivery gets one more attempt, now. */
export async function retryDelivery(tx: Tx, ctx: Ctx, accountId: string, deliveryId: string) {
  const delivery = await repo.findDelivery(tx, accountId, deliveryId)
  if (!delivery) throw new NotFound('Entrega não encontrada')
  if (delivery.status !== 'failed') {
    throw new Conflict('Só uma entrega que falhou pode ser reenviada')
  }
  await repo.retryFailed(tx, { deliveryId }, ctx.clock.now())
  await repo.notifyWorkers(tx)
  return { id: deliveryId, status: 'pending' as const }
}

/** Every failed delivery of the endpoint created since `since` gets one more attempt. */
export async function retryFailedSince(
  tx: Tx,
  ctx: Ctx,
  accountId: string,
  endpointId: string,
  since: Date,
) {
  await getEndpoint(tx, accountId, endpointId)
  const rows = await repo.retryFailed(tx, { endpointId, since }, ctx.clock.now())
  if (rows.length) await repo.notifyWorkers(tx)
  return { retried: rows.length }
}

/**
 * The endpoint is turned off by the platform (it answered 410, or failed for 24 h straight),
 * once; its owner is e-mailed. Its pending deliveries fail when their turn comes.
 */
export async function disableEndpoint(
  tx: Tx,
  ctx: Outbox & { config: { baseUrl: string } },
  endpointId: string,
  reason: Exclude<DisabledReason, 'manual'>,
) {
  const row = await repo.disableEndpoint(tx, endpointId, reason, ctx.clock.now())
  if (!row) return
  const owner = await accountOwner(tx, row.account_id)
  if (!owner) return
  await queueEmail(tx, ctx, {
    to: owner.email,
    dedupeKey: `webhook-disabled:${row.id}:${row.updated_at.toISOString()}`,
    ...webhookDisabledEmail({
      ownerName: owner.name,
      url: row.url,
      reason,
      docsUrl: `${ctx.config.baseUrl}/docs`,
    }),
  })
}

export async function deleteEndpoint(tx: Tx, ctx: Ctx, accountId: string, id: string) {
  const result = await repo.softDeleteEndpoint(tx, accountId, id, ctx.clock.now())
  if (!result.numUpdatedRows) throw new NotFound(ENDPOINT_NOT_FOUND)
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
