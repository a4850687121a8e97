// Coupons: percent or amount off a product's price, optional expiry and redemption cap.
import type { Clock } from '../../kit/clock.ts'
import type { Executor, Tx } from '../../kit/db.ts'
import { BadRequest, Conflict, NotFound } from '../../kit/errors.ts'
import { iso } from '../../kit/http/schemas.ts'
import { uuidv7 } from '../../kit/ids.ts'
import {
  basisPointsToPercent,
  discounted,
  percentToBasisPoints,
  toBrl,
  toCents,
} from '../../kit/money.ts'
import { couponsRepo as repo } from './coupons-repo.ts'
import { catalogRepo } from './repo.ts'
import type { CreateCouponInput } from './schema.ts'

type Coupon = Awaited<ReturnType<typeof repo.findByCode>> & {}

export const INVALID_COUPON = 'Cupom inválido'

export const normalizeCode = (code: string) => code.trim().toUpperCase()

export function couponOut(c: Coupon) {
  return {
    id: c.id,
    code: c.code,
    percent_off: c.percent_off_bps === null ? null : basisPointsToPercent(c.percent_off_bps),
    amount_off: c.amount_off_cents === null ? null : toBrl(c.amount_off_cents),
    expires_at: iso(c.expires_at),
    max_redemptions: c.max_redemptions,
    redemptions: c.redemptions,
    created_at: iso(c.created_at)!,
  }
}

export async function createCoupon(
  tx: Tx,
  ctx: { clock: Clock },
  accountId: string,
  productId: string,
  input: CreateCouponInput,
) {
  if (!(await catalogRepo.findProduct(tx, accountId, productId)))
    throw new NotFound('Produto não encontrado')
  if ((input.percent_off === undefined) === (input.amount_off === undefined)) {
    throw new BadRequest(
      'Informe o desconto em % (percent_off) ou em R$ (amount_off), só um dos dois',
    )
  }
  const now = ctx.clock.now()
  const row = await repo.insert(tx, {
    id: uuidv7(now.getTime()),
    product_id: productId,
    code: normalizeCode(input.code),
    percent_off_bps:
      input.percent_off === undefined ? null : percentToBasisPoints(input.percent_off),
    amount_off_cents: input.amount_off === undefined ? null : toCents(input.amount_off),
    expires_at: input.expires_at ? new Date(input.expires_at) : null,
    max_redemptions: input.max_redemptions ?? null,
    created_at: now,
  })
  if (!row) throw new Conflict('Já existe um cupom com este código neste produto')
  return couponOut(row)
}

export async function listCoupons(db: Executor, accountId: string, productId: string) {
  if (!(await catalogRepo.findProduct(db, accountId, productId)))
    throw new NotFound('Produto não encontrado')
  return (await repo.listOf(db, productId)).map(couponOut)
}

/** A product deleted for good takes its coupons along (without orders, none was ever redeemed). */
export async function deleteCouponsOf(tx: Tx, productId: string) {
  await repo.deleteOf(tx, productId)
}

/**
 * The price with a coupon applied, checked for expiry and remaining redemptions. Throws
 * `Cupom inválido`; a coupon that would make the price zero is refused too.
 */
export async function priceWithCoupon(
  db: Executor,
  ctx: { clock: Clock },
  productId: string,
  priceCents: number,
  code: string,
) {
  const { coupon, amountsCents } = await pricesWithCoupon(db, ctx, productId, [priceCents], code)
  return { coupon, amountCents: amountsCents[0]! }
}

/**
 * priceWithCoupon for several prices of one product (a page's plans), reading the coupon once;
 * refused when it would make any of them zero.
 */
export async function pricesWithCoupon(
  db: Executor,
  ctx: { clock: Clock },
  productId: string,
  pricesCents: number[],
  code: string,
) {
  const coupon = await repo.findByCode(db, productId, normalizeCode(code))
  const now = ctx.clock.now()
  if (!coupon) throw new BadRequest(INVALID_COUPON)
  if (coupon.expires_at && coupon.expires_at <= now) throw new BadRequest(INVALID_COUPON)
  if (coupon.max_redemptions !== null && coupon.redemptions >= coupon.max_redemptions)
    throw new BadRequest(INVALID_COUPON)
  const off = { percentOffBps: coupon.percent_off_bps, amountOffCents: coupon.amount_off_cents }
  const amountsCents = pricesCents.map((price) => discounted(price, off))
  if (amountsCents.some((amount) => amount <= 0)) throw new BadRequest(INVALID_COUPON)
  return { coupon, amountsCents }
}

/** Counts the redemption inside the order's transaction; used up meanwhile → `Cupom inválido`. */
export async function redeemCoupon(tx: Tx, couponId: string) {
  if (!(await repo.redeem(tx, couponId))) throw new BadRequest(INVALID_COUPON)
}

/** Gives the redemption back when an order that took it never gets paid. */
export const releaseCoupon = (tx: Tx, productId: string, code: string) =>
  repo.release(tx, productId, code)
