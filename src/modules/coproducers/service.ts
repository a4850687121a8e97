// Co-producers of a product (SPEC §3): each takes a split of every sale, after the affiliate's
// commission; the splits of a product add up to at most 100 %; each order snapshots them.
import type { Deps } from '../../deps.ts'
import type { Executor, Tx } from '../../kit/db.ts'
import type { DB } from '../../kit/db-schema.ts'
import { BadRequest, Conflict } from '../../kit/errors.ts'
import { type PageQuery, pageWindow, toPage } from '../../kit/http/pagination.ts'
import { iso } from '../../kit/http/schemas.ts'
import { uuidv7 } from '../../kit/ids.ts'
import { basisPointsToPercent, percentToBasisPoints } from '../../kit/money.ts'
import { inviteUser } from '../accounts/invitations.ts'
import { usersByIds } from '../accounts/service.ts'
import { getProduct } from '../catalog/service.ts'
import { coproducersRepo as repo } from './repo.ts'
import type { CoproducerOut, EnrollCoproducerInput } from './schema.ts'

type Ctx = Pick<Deps, 'clock' | 'appSecret' | 'config' | 'mailHandoff'>
type Row = DB['coproducers']

export const COPRODUCER_EXISTS = 'Este coprodutor já está cadastrado neste produto'
export const SPLITS_OVER_100 = 'A soma das divisões com coprodutores não pode passar de 100%'

function coproducerOut(row: Row, user: { name: string; email: string } | undefined): CoproducerOut {
  return {
    id: row.id,
    user_id: row.user_id,
    split_percent: basisPointsToPercent(row.split_bps),
    product_id: row.product_id,
    name: user?.name ?? '',
    email: user?.email ?? '',
    created_at: iso(row.created_at)!,
  }
}

export async function enrollCoproducer(
  tx: Tx,
  ctx: Ctx,
  actor: { accountId: string; userId: string },
  productId: string,
  input: EnrollCoproducerInput,
) {
  const product = await getProduct(tx, ctx, actor.accountId, productId)
  await repo.lockProduct(tx, productId)
  const creator = (await usersByIds(tx, [actor.userId])).get(actor.userId)
  const user = await inviteUser(tx, ctx, {
    email: input.email,
    role: 'coproducer',
    productName: product.name,
    creatorName: creator?.name ?? 'Um produtor',
  })
  const current = await repo.allOf(tx, productId)
  if (current.some((c) => c.user_id === user.id)) throw new Conflict(COPRODUCER_EXISTS)
  const bps = percentToBasisPoints(input.split_percent)
  if (current.reduce((sum, c) => sum + c.split_bps, 0) + bps > 10_000) {
    throw new BadRequest(SPLITS_OVER_100)
  }
  const now = ctx.clock.now()
  const row = await repo.insert(tx, {
    id: uuidv7(now.getTime()),
    account_id: actor.accountId,
    product_id: productId,
    user_id: user.id,
    split_bps: bps,
    created_at: now,
    updated_at: now,
  })
  if (!row) throw new Conflict(COPRODUCER_EXISTS)
  return coproducerOut(row, user)
}

export async function listCoproducers(
  db: Executor,
  ctx: Ctx,
  accountId: string,
  productId: string,
  query: PageQuery,
) {
  await getProduct(db, ctx, accountId, productId)
  const rows = await repo.list(db, productId, pageWindow(query))
  const users = await usersByIds(
    db,
    rows.map((r) => r.user_id),
  )
  return toPage(rows, query, (row) => coproducerOut(row, users.get(row.user_id)))
}

/** The splits a new order of the product snapshots, in enrolment order. */
export async function splitsOf(db: Executor, productId: string) {
  const rows = await repo.allOf(db, productId)
  return rows.map((r) => ({ coproducerId: r.id, userId: r.user_id, bps: r.split_bps }))
}
