// Affiliates of a product (SPEC §3): enrolled by e-mail with a unique code that the checkout
// link carries (?ref=); the commission % is snapshotted on each order at checkout.
import { randomBytes } from 'node:crypto'
import type { Deps } from '../../deps.ts'
import type { Executor, Tx } from '../../kit/db.ts'
import { Conflict, NotFound } from '../../kit/errors.ts'
import { type PageQuery, pageWindow, toPage } from '../../kit/http/pagination.ts'
import { iso } from '../../kit/http/schemas.ts'
import { uuidv7 } from '../../kit/ids.ts'
import { basisPointsToPercent, percentToBasisPoints } from '../../kit/money.ts'
import { inviteUser } from '../accounts/invitations.ts'
import { usersByIds } from '../accounts/service.ts'
import type { ProductOut } from '../catalog/schema.ts'
import { getProduct } from '../catalog/service.ts'
import { type AffiliateRow, affiliatesRepo as repo } from './repo.ts'
import type { AffiliateOut, EnrollAffiliateInput } from './schema.ts'

type Ctx = Pick<Deps, 'clock' | 'appSecret' | 'config' | 'mailHandoff'>
type Actor = { accountId: string; userId: string }
type User = { name: string; email: string }

export const AFFILIATE_EXISTS = 'Este afiliado já está cadastrado neste produto'
export const AFFILIATE_NOT_FOUND = 'Afiliado não encontrado'

// No look-alike characters (0/o, 1/l/i): codes are read aloud and typed.
const CODE_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789'

function newCode(): string {
  return [...randomBytes(8)].map((b) => CODE_ALPHABET[b % CODE_ALPHABET.length]).join('')
}

function affiliateOut(
  product: ProductOut,
  row: AffiliateRow,
  user: User | undefined,
): AffiliateOut {
  return {
    id: row.id,
    user_id: row.user_id,
    code: row.code,
    commission_percent: basisPointsToPercent(row.commission_bps),
    product_id: row.product_id,
    name: user?.name ?? '',
    email: user?.email ?? '',
    referral_url: `${product.checkout_url}?ref=${row.code}`,
    created_at: iso(row.created_at)!,
    updated_at: iso(row.updated_at)!,
  }
}

export async function enrollAffiliate(
  tx: Tx,
  ctx: Ctx,
  actor: Actor,
  productId: string,
  input: EnrollAffiliateInput,
) {
  const product = await getProduct(tx, ctx, actor.accountId, productId)
  const creator = (await usersByIds(tx, [actor.userId])).get(actor.userId)
  const user = await inviteUser(tx, ctx, {
    email: input.email,
    role: 'affiliate',
    productName: product.name,
    creatorName: creator?.name ?? 'Um produtor',
  })
  const now = ctx.clock.now()
  // A code collision (rare) gets a new code; a taken (product, user) pair is a conflict.
  for (let attempt = 0; attempt < 5; attempt++) {
    if (await repo.findByProductUser(tx, productId, user.id)) throw new Conflict(AFFILIATE_EXISTS)
    const row = await repo.insert(tx, {
      id: uuidv7(now.getTime()),
      account_id: actor.accountId,
      product_id: productId,
      user_id: user.id,
      code: newCode(),
      commission_bps: percentToBasisPoints(input.commission_percent),
      created_at: now,
      updated_at: now,
    })
    if (row) return affiliateOut(product, row, user)
  }
  throw new Error('no free affiliate code after 5 attempts')
}

export async function listAffiliates(
  db: Executor,
  ctx: Ctx,
  accountId: string,
  productId: string,
  query: PageQuery,
) {
  const product = await getProduct(db, ctx, accountId, productId)
  const rows = await repo.list(db, productId, pageWindow(query))
  const users = await usersByIds(
    db,
    rows.map((r) => r.user_id),
  )
  return toPage(rows, query, (row) => affiliateOut(product, row, users.get(row.user_id)))
}

/** A new percentage applies to orders created from now on; existing orders keep theirs. */
export async function setCommission(
  tx: Tx,
  ctx: Ctx,
  accountId: string,
  productId: string,
  affiliateId: string,
  percent: number,
) {
  const product = await getProduct(tx, ctx, accountId, productId)
  const row = await repo.setCommission(
    tx,
    productId,
    affiliateId,
    percentToBasisPoints(percent),
    ctx.clock.now(),
  )
  if (!row) throw new NotFound(AFFILIATE_NOT_FOUND)
  const users = await usersByIds(tx, [row.user_id])
  return affiliateOut(product, row, users.get(row.user_id))
}

/** The affiliate a checkout's code credits for this product; unknown codes credit no one. */
export async function referralFor(db: Executor, productId: string, code: string | undefined) {
  if (!code) return null
  return referralOf(await repo.findByCode(db, productId, code.trim().toLowerCase()))
}

/** The affiliate who brought a subscription earns on its renewals too, at today's percent. */
export async function referralById(db: Executor, affiliateId: string) {
  return referralOf(await repo.findById(db, affiliateId))
}

function referralOf(row: { id: string; user_id: string; commission_bps: number } | undefined) {
  return row ? { affiliateId: row.id, userId: row.user_id, bps: row.commission_bps } : null
}
