import type { Config } from '../../config.ts'
import type { Clock } from '../../kit/clock.ts'
import type { Db, Executor, Tx } from '../../kit/db.ts'
import type { PaymentMethod } from '../../kit/db-schema.ts'
import { BadRequest, Conflict, NotFound } from '../../kit/errors.ts'
import { type PageQuery, pageWindow, toPage } from '../../kit/http/pagination.ts'
import { iso } from '../../kit/http/schemas.ts'
import { uuidv7 } from '../../kit/ids.ts'
import { toBrl, toCents } from '../../kit/money.ts'
import { besideHit, checkHit, type HitRow, hitPart, type RateLimit } from '../../kit/rate-limit.ts'
import { writeParts } from '../../kit/statement.ts'
import { hasSessionsForProduct } from '../checkout/sessions.ts'
import { hasOrdersForProduct } from '../orders/service.ts'
import { deleteCouponsOf } from './coupons.ts'
import {
  type PlanRow,
  type ProductRow,
  type ProductWithPlanRow,
  catalogRepo as repo,
} from './repo.ts'
import type { CreateProductInput, PatchProductInput, ProductOut } from './schema.ts'

type Ctx = { clock: Clock; config: Pick<Config, 'checkoutUrl'> }
type PlanInput = CreateProductInput['plans'][number]

/** The seed's defaults (SPEC §4): PIX only for one_time; recurring as the seed sold it. */
const DEFAULT_METHODS = {
  one_time: ['pix'] as PaymentMethod[],
  recurring: ['pix', 'card', 'boleto'] as PaymentMethod[],
}
const METHOD_ORDER: PaymentMethod[] = ['pix', 'card', 'boleto']
const DEFAULT_MAX_INSTALLMENTS = { one_time: 1, recurring: 12 }

/**
 * How a product is paid: its methods, installments and who pays their interest. Recurring
 * products keep the seed's interest-free installments: a subscription's renewals are single
 * charges of the plan's price, so a buyer's interest could only ever apply to its first one.
 */
function paymentFields(
  billing: 'one_time' | 'recurring',
  input: Pick<CreateProductInput, 'payment_methods' | 'max_installments' | 'installment_interest'>,
) {
  if (billing === 'recurring' && input.installment_interest === 'buyer') {
    throw new BadRequest('Assinaturas (recurring) só parcelam sem juros para o comprador')
  }
  return {
    ...(input.payment_methods
      ? { payment_methods: METHOD_ORDER.filter((m) => input.payment_methods!.includes(m)) }
      : {}),
    ...(input.max_installments ? { max_installments: input.max_installments } : {}),
    ...(input.installment_interest ? { installment_interest: input.installment_interest } : {}),
  }
}

/** Recurring plans bill every `interval_count` months or years; one-time plans have no interval. */
function planFields(billing: 'one_time' | 'recurring', plan: PlanInput) {
  if (billing === 'one_time') {
    if (plan.interval || plan.interval_count) {
      throw new BadRequest('Planos de produto avulso (one_time) não têm intervalo')
    }
    return {
      name: plan.name,
      price_cents: toCents(plan.price),
      interval: null,
      interval_count: null,
    }
  }
  return {
    name: plan.name,
    price_cents: toCents(plan.price),
    interval: plan.interval ?? 'month',
    interval_count: plan.interval_count ?? 1,
  }
}

export function productOut(ctx: Ctx, product: ProductRow, plans: PlanRow[]): ProductOut {
  return {
    id: product.id,
    name: product.name,
    slug: product.slug,
    billing: product.billing,
    description: product.description,
    success_url: product.success_url,
    delivery_url: product.delivery_url,
    image_url: product.image_url,
    guarantee_days: product.guarantee_days,
    status: product.status,
    payment_methods: product.payment_methods,
    max_installments: product.max_installments,
    installment_interest: product.installment_interest,
    plans: plans
      .filter((p) => p.product_id === product.id)
      .map((p) => ({
        id: p.id,
        name: p.name,
        price: toBrl(p.price_cents),
        interval: p.interval,
        interval_count: p.interval_count,
      })),
    checkout_url: `${ctx.config.checkoutUrl}/checkout/${product.slug}`,
    created_at: iso(product.created_at)!,
  }
}

export async function createProduct(
  tx: Tx,
  ctx: Ctx,
  accountId: string,
  input: CreateProductInput,
) {
  const now = ctx.clock.now()
  const plans = input.plans.map((plan) => planFields(input.billing, plan))
  const product = (await repo.insertProduct(tx, {
    id: uuidv7(now.getTime()),
    account_id: accountId,
    name: input.name,
    slug: input.slug,
    billing: input.billing,
    description: input.description ?? null,
    success_url: input.success_url ?? null,
    delivery_url: input.delivery_url ?? null,
    image_url: input.image_url ?? null,
    guarantee_days: input.guarantee_days ?? 7,
    payment_methods: DEFAULT_METHODS[input.billing],
    max_installments: DEFAULT_MAX_INSTALLMENTS[input.billing],
    installment_interest: 'seller',
    ...paymentFields(input.billing, input),
    created_at: now,
    updated_at: now,
  })) as ProductRow | undefined
  if (!product) throw new Conflict('Este slug já está em uso')
  const planRows = await repo.insertPlans(
    tx,
    plans.map((plan, position) => ({
      ...plan,
      id: uuidv7(now.getTime()),
      product_id: product.id,
      position,
      created_at: now,
    })),
  )
  return productOut(ctx, product, planRows)
}

export async function listProducts(db: Executor, ctx: Ctx, accountId: string, query: PageQuery) {
  const rows = (await repo.listProducts(db, accountId, pageWindow(query))) as ProductRow[]
  const plans = await repo.plansOf(
    db,
    rows.slice(0, query.limit).map((r) => r.id),
  )
  return toPage(rows, query, (row) => productOut(ctx, row, plans))
}

/** Product id → name for every product of the account: lists that show product names. */
export async function productNames(db: Executor, accountId: string): Promise<Map<string, string>> {
  return new Map((await repo.productNames(db, accountId)).map((p) => [p.id, p.name]))
}

/** Plan id → name for every plan of the account's products, archived ones included. */
export async function planNames(db: Executor, accountId: string): Promise<Map<string, string>> {
  return new Map((await repo.planNames(db, accountId)).map((p) => [p.id, p.name]))
}

export async function getProduct(db: Executor, ctx: Ctx, accountId: string, id: string) {
  const product = (await repo.findProduct(db, accountId, id)) as ProductRow | undefined
  if (!product) throw new NotFound('Produto não encontrado')
  return productOut(ctx, product, await repo.plansOf(db, [id]))
}

export async function patchProduct(
  tx: Tx,
  ctx: Ctx,
  accountId: string,
  id: string,
  patch: PatchProductInput,
) {
  const now = ctx.clock.now()
  const { plans, payment_methods, max_installments, installment_interest, ...fields } = patch
  const found = await repo.findProduct(tx, accountId, id)
  if (!found) throw new NotFound('Produto não encontrado')
  const payment = paymentFields(found.billing, {
    payment_methods,
    max_installments,
    installment_interest,
  })
  const product = (await repo.updateProduct(tx, accountId, id, {
    ...fields,
    ...payment,
    updated_at: now,
  })) as ProductRow | undefined
  if (!product) throw new NotFound('Produto não encontrado')
  if (plans) {
    const existing = new Set((await repo.plansOf(tx, [id])).map((p) => p.id))
    const keep: string[] = []
    const added = []
    for (const [position, plan] of plans.entries()) {
      const fieldsOfPlan = { ...planFields(product.billing, plan), position }
      if (plan.id) {
        if (!existing.has(plan.id))
          throw new BadRequest(`Plano ${plan.id} não pertence a este produto`)
        await repo.updatePlan(tx, id, plan.id, fieldsOfPlan)
        keep.push(plan.id)
      } else {
        added.push({ ...fieldsOfPlan, id: uuidv7(now.getTime()), product_id: id, created_at: now })
      }
    }
    // Orders keep pointing at archived plans; only new checkouts stop offering them.
    await repo.archivePlansExcept(tx, id, keep, now)
    if (added.length) await repo.insertPlans(tx, added)
  }
  return productOut(ctx, product, await repo.plansOf(tx, [id]))
}

/**
 * Products with orders, or that buyers began to check out, are archived (their history must
 * stay); others are deleted with their coupons (affiliates and co-producers cascade).
 */
export async function deleteProduct(tx: Tx, ctx: Ctx, accountId: string, id: string) {
  const product = await repo.findProduct(tx, accountId, id)
  if (!product) throw new NotFound('Produto não encontrado')
  if ((await hasOrdersForProduct(tx, accountId, id)) || (await hasSessionsForProduct(tx, id))) {
    await repo.updateProduct(tx, accountId, id, { status: 'archived', updated_at: ctx.clock.now() })
    return 'archived' as const
  }
  await deleteCouponsOf(tx, id)
  await repo.deletePlansOf(tx, id)
  await repo.deleteProduct(tx, accountId, id)
  return 'deleted' as const
}

/**
 * The product and plan a public checkout sells (active product, live plan, the first by
 * default), with the co-producer splits its orders snapshot.
 */
export async function sellable(db: Executor, productId: string, planId?: string) {
  return sellableOf(await repo.findProductWithPlan(db, productId, planId))
}

/**
 * sellable, read in the statement that logs the request's rate-limit hit (kit/rate-limit.ts):
 * one round trip for both. A hit the window had no room for is the answer (429), whatever the
 * product; the hit commits as the relaxed pool commits (kit/db.ts), under load in one
 * transaction with other statements there, its bucket's row taken in order (kit/pg-coalescer.ts).
 */
export async function sellableAfterHit(
  relaxed: Db,
  clock: Clock,
  limit: { rule: RateLimit; key: string },
  productId: string,
  planId?: string,
) {
  const { part, at, bucket } = hitPart(clock, limit.rule, limit.key)
  const read = besideHit(repo.productWithPlanRead(productId, planId))
  const [row] = await writeParts<HitRow & ProductWithPlanRow>(relaxed, [part], read, {
    together: true,
    locks: bucket,
  })
  checkHit(limit.rule, at, row!)
  const { hit_allowed: _, hit_blocking: __, ...found } = row!
  return sellableOf(repo.productWithPlanOf(found))
}

function sellableOf(found: ReturnType<typeof repo.productWithPlanOf>) {
  if (found?.product.status !== 'active') throw new NotFound('Produto não encontrado')
  if (!found.plan) throw new BadRequest('Plano inválido para este produto')
  return { product: found.product, plan: found.plan, splits: found.splits }
}

/** What the hosted checkout shows: the active product, its plans and its seller's name. */
export async function storefrontBySlug(db: Executor, slug: string) {
  const found = await repo.storefront(db, slug)
  return found?.product.status === 'active' ? found : null
}

/** Any plan by id, archived or not (what an existing order or subscription was sold on). */
export const findPlanById = (db: Executor, id: string) => repo.findAnyPlan(db, id)

/** A plan with its product's name and delivery link: what a paid order needs. */
export type PlanWithProduct = PlanRow & {
  product_name: string
  product_delivery_url: string | null
}

export { planFromJson } from './repo.ts'

/** Any product by id, whatever its status (for e-mails and redirects of existing orders). */
export async function findProductById(db: Executor, id: string) {
  return (await repo.findPublicProduct(db, id)) as ProductRow | undefined
}
