import type { Outbox } from '../../deps.ts'
import type { Executor, Tx } from '../../kit/db.ts'
import type { DB } from '../../kit/db-schema.ts'
import { Conflict, NotFound } from '../../kit/errors.ts'
import { type PageQuery, pageWindow, toPage } from '../../kit/http/pagination.ts'
import { iso } from '../../kit/http/schemas.ts'
import { uuidv7 } from '../../kit/ids.ts'
import { type Part, writeParts } from '../../kit/statement.ts'
import { usersByIds } from '../accounts/service.ts'
import { emitEvent, eventParts, type NewEvent } from '../webhooks/service.ts'
import { accessRepo as repo } from './repo.ts'
import type { MemberOut } from './schema.ts'

type Ctx = Outbox
type Grant = DB['access_grants']

/**
 * Unlocks the product of a paid order: one access record per order (a repeat is a no-op
 * returning null; a hand grant has no order, `orderId` null), the buyer enrolled as the
 * account's member, `member.enrolled` and `access.granted` in the outbox, all in one statement.
 * `before`: the caller's events to write first (a paid order's `order.paid`), written even
 * when the grant is a repeat.
 */
export async function grantAccess(
  tx: Tx,
  ctx: Ctx,
  input: GrantInput,
  before: NewEvent[] = [],
): Promise<Grant | null> {
  const [grant] = await writeParts(tx, grantParts(ctx, input, before), repo.selectGrant)
  return grant ?? null
}

type GrantInput = { accountId: string; buyerId: string; productId: string; orderId: string | null }

/** grantAccess as parts of a statement the caller writes with others (kit/statement.ts). */
export function grantParts(ctx: Ctx, input: GrantInput, before: NewEvent[] = []): Part[] {
  const now = ctx.clock.now()
  const id = uuidv7(now.getTime())
  const ids = {
    buyer_id: input.buyerId,
    product_id: input.productId,
    order_id: input.orderId,
    access_id: id,
  }
  // Only when the grant was new; the caller's own events in any case.
  const keep = repo.grantIsNew
  const events = eventParts(ctx, input.accountId, [
    ...before,
    { type: 'member.enrolled', data: ids, keep },
    {
      type: 'access.granted',
      data: {
        access_id: id,
        buyer_id: input.buyerId,
        product_id: input.productId,
        order_id: input.orderId,
      },
      keep,
    },
  ])
  const grant = repo.grantParts({
    id,
    account_id: input.accountId,
    buyer_id: input.buyerId,
    product_id: input.productId,
    order_id: input.orderId,
    status: 'active',
    granted_at: now,
  })
  return [...grant, ...events.parts]
}

/** Revokes one access (by hand, refund, chargeback, canceled subscription) with `access.revoked`. */
export async function revokeAccess(
  tx: Tx,
  ctx: Ctx,
  input: { accountId: string; buyerId: string; accessId: string; reason: string },
) {
  const grant = await repo.revoke(
    tx,
    input.accountId,
    input.buyerId,
    input.accessId,
    input.reason,
    ctx.clock.now(),
  )
  if (!grant) {
    const existing = await repo.findGrant(tx, input.accountId, input.buyerId, input.accessId)
    if (!existing) throw new NotFound('Acesso não encontrado')
    throw new Conflict('Este acesso já foi revogado')
  }
  await emitEvent(tx, ctx, {
    accountId: input.accountId,
    type: 'access.revoked',
    data: {
      access_id: grant.id,
      buyer_id: grant.buyer_id,
      product_id: grant.product_id,
      order_id: grant.order_id,
      reason: input.reason,
    },
  })
  return grant
}

/** Revokes the access an order gave (refund, chargeback), unless already revoked by hand. */
export async function revokeOrderAccess(
  tx: Tx,
  ctx: Ctx,
  input: { orderId: string; reason: string },
): Promise<Grant | null> {
  const grant = await repo.findByOrder(tx, input.orderId)
  if (grant?.status !== 'active') return null
  return revokeAccess(tx, ctx, {
    accountId: grant.account_id,
    buyerId: grant.buyer_id,
    accessId: grant.id,
    reason: input.reason,
  })
}

export function accessOut(g: Grant) {
  return {
    id: g.id,
    product_id: g.product_id,
    order_id: g.order_id,
    status: g.status,
    granted_at: iso(g.granted_at)!,
    revoked_at: iso(g.revoked_at),
  }
}

async function membersOut(
  db: Executor,
  accountId: string,
  members: DB['members'][],
): Promise<MemberOut[]> {
  const ids = members.map((m) => m.buyer_id)
  const [users, grants] = await Promise.all([
    usersByIds(db, ids),
    repo.grantsOf(db, accountId, ids),
  ])
  return members.map((m) => {
    const user = users.get(m.buyer_id)
    return {
      id: m.buyer_id,
      name: user?.name ?? '',
      email: user?.email ?? '',
      created_at: iso(m.created_at)!,
      access: grants.filter((g) => g.buyer_id === m.buyer_id).map(accessOut),
    }
  })
}

export async function listMembers(db: Executor, accountId: string, query: PageQuery) {
  const rows = await repo.listMembers(db, accountId, pageWindow(query))
  const shaped = await membersOut(db, accountId, rows.slice(0, query.limit))
  return toPage(rows, query, (row) => shaped.find((m) => m.id === row.buyer_id)!)
}

export async function getMember(db: Executor, accountId: string, buyerId: string) {
  const member = await repo.findMember(db, accountId, buyerId)
  if (!member) throw new NotFound('Membro não encontrado')
  const [shaped] = await membersOut(db, accountId, [member])
  return shaped!
}

export const activeProductsOf = (db: Executor, buyerId: string) =>
  repo.activeProductsOf(db, buyerId)
