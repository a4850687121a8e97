import type { InferResult, Insertable, Kysely, Updateable } from 'kysely'
import { jsonArrayFrom, jsonObjectFrom } from 'kysely/helpers/postgres'
import type { Executor } from '../../kit/db.ts'
import type { DB } from '../../kit/db-schema.ts'
import { newestFirst, type PageWindow } from '../../kit/http/pagination.ts'
import { type Fragment, fragmentTemplate, runFragment, template } from '../../kit/template.ts'

export type ProductRow = DB['products'] & { status: 'active' | 'archived' }
export type PlanRow = DB['plans']

/** A plan read as JSON inside another statement, with its timestamps as dates again. */
export function planFromJson<T extends { created_at: string; archived_at: string | null }>(
  plan: T,
): Omit<T, 'created_at' | 'archived_at'> & { created_at: Date; archived_at: Date | null } {
  const archivedAt = plan.archived_at
  return {
    ...plan,
    created_at: new Date(plan.created_at),
    archived_at: archivedAt === null ? null : new Date(archivedAt),
  }
}

/**
 * A product with one live plan (the one named, else the first) and its co-producer splits, as
 * two statements compiled once (kit/template.ts): a checkout reads it on every purchase.
 */
const buildProductWithPlan =
  (planNamed: boolean) => (q: Kysely<DB>, v: { productId: string; planId: string }) =>
    q
      .selectFrom('products')
      .selectAll('products')
      .select((eb) =>
        jsonObjectFrom(
          eb
            .selectFrom('plans')
            .selectAll('plans')
            .whereRef('plans.product_id', '=', 'products.id')
            .where('plans.archived_at', 'is', null)
            .$if(planNamed, (p) => p.where('plans.id', '=', v.planId))
            .orderBy('plans.position')
            .limit(1),
        ).as('plan'),
      )
      .select((eb) =>
        jsonArrayFrom(
          eb
            .selectFrom('coproducers')
            .select([
              'coproducers.id as coproducerId',
              'coproducers.user_id as userId',
              'coproducers.split_bps as bps',
            ])
            .whereRef('coproducers.product_id', '=', 'products.id')
            .orderBy('coproducers.created_at')
            .orderBy('coproducers.id'),
        ).as('splits'),
      )
      .where('products.id', '=', v.productId)
/** A row of that statement: the product's columns, `plan` as JSON (or null), `splits`. */
export type ProductWithPlanRow = InferResult<
  ReturnType<ReturnType<typeof buildProductWithPlan>>
>[number]
const productWithFirstPlan = fragmentTemplate(buildProductWithPlan(false))
const productWithNamedPlan = fragmentTemplate(buildProductWithPlan(true))

/**
 * A slug's product with its live plans in order (as JSON) and its seller's name, shown on its
 * checkout ("Vendido por"): one statement compiled once for every page view of a launch. The
 * seller's name is the one read of another domain's table here, and only the name leaves.
 */
const storefrontRead = template((q, v: { slug: string }) =>
  q
    .selectFrom('products')
    .selectAll('products')
    .select((eb) => [
      jsonArrayFrom(
        eb
          .selectFrom('plans')
          .selectAll('plans')
          .whereRef('plans.product_id', '=', 'products.id')
          .where('plans.archived_at', 'is', null)
          .orderBy('plans.position'),
      ).as('plans'),
      eb
        .selectFrom('accounts')
        .select('accounts.name')
        .whereRef('accounts.id', '=', 'products.account_id')
        .as('seller_name'),
    ])
    .where('products.slug', '=', v.slug),
)

export const catalogRepo = {
  insertProduct(db: Executor, row: Insertable<DB['products']>) {
    return db
      .insertInto('products')
      .values(row)
      .onConflict((oc) => oc.column('slug').doNothing())
      .returningAll()
      .executeTakeFirst()
  },

  insertPlans(db: Executor, rows: Insertable<DB['plans']>[]) {
    return db.insertInto('plans').values(rows).returningAll().execute()
  },

  updatePlan(db: Executor, productId: string, id: string, patch: Updateable<DB['plans']>) {
    return db
      .updateTable('plans')
      .set(patch)
      .where('id', '=', id)
      .where('product_id', '=', productId)
      .execute()
  },

  archivePlansExcept(db: Executor, productId: string, keepIds: string[], now: Date) {
    let query = db
      .updateTable('plans')
      .set({ archived_at: now })
      .where('product_id', '=', productId)
      .where('archived_at', 'is', null)
    if (keepIds.length) query = query.where('id', 'not in', keepIds)
    return query.execute()
  },

  updateProduct(db: Executor, accountId: string, id: string, patch: Updateable<DB['products']>) {
    return db
      .updateTable('products')
      .set(patch)
      .where('id', '=', id)
      .where('account_id', '=', accountId)
      .returningAll()
      .executeTakeFirst()
  },

  findProduct(db: Executor, accountId: string, id: string) {
    return db
      .selectFrom('products')
      .selectAll()
      .where('id', '=', id)
      .where('account_id', '=', accountId)
      .executeTakeFirst()
  },

  /** Any account's product: for the public checkout. */
  findPublicProduct(db: Executor, id: string) {
    return db.selectFrom('products').selectAll().where('id', '=', id).executeTakeFirst()
  },

  /**
   * Any account's product with one live plan (the one named, else the first), in one statement:
   * what a checkout sells, read on every purchase (the plan travels as JSON). Also the product's
   * co-producer splits in enrolment order (coproducers' table, read here to save a round trip
   * per purchase: every order snapshots them).
   */
  async findProductWithPlan(db: Executor, productId: string, planId?: string) {
    const [row] = await runFragment<ProductWithPlanRow>(
      db,
      catalogRepo.productWithPlanRead(productId, planId),
    )
    return catalogRepo.productWithPlanOf(row)
  },

  /** findProductWithPlan's statement, for a caller to send in a statement of its own. */
  productWithPlanRead(productId: string, planId?: string): Fragment {
    const read = planId === undefined ? productWithFirstPlan : productWithNamedPlan
    // The first-plan read has no plan id among its values: any string does.
    return read({ productId, planId: planId ?? '' })
  },

  /** What findProductWithPlan makes of its statement's row (none, or one without an id). */
  productWithPlanOf(row: ProductWithPlanRow | undefined) {
    if (!row?.id) return undefined
    const { plan, splits, ...product } = row
    return {
      product: product as ProductRow,
      plan: plan && planFromJson(plan),
      splits,
    }
  },

  /** What a hosted checkout shows of a slug's product, in one statement (storefrontRead). */
  async storefront(db: Executor, slug: string) {
    const [row] = await storefrontRead(db, { slug })
    if (!row) return undefined
    const { plans, seller_name, ...product } = row
    return {
      product: product as ProductRow,
      plans: plans.map((plan) => planFromJson(plan)),
      sellerName: seller_name,
    }
  },

  listProducts(db: Executor, accountId: string, window: PageWindow) {
    return db
      .selectFrom('products')
      .selectAll()
      .where('account_id', '=', accountId)
      .$call(newestFirst(window, { table: 'products', scope: { account_id: accountId } }))
      .execute()
  },

  /** Every product of the account, id and name only, by name (pages that name products). */
  productNames(db: Executor, accountId: string) {
    return db
      .selectFrom('products')
      .select(['id', 'name'])
      .where('account_id', '=', accountId)
      .orderBy('name')
      .execute()
  },

  /** Every plan of the account's products, archived ones too (old orders name them). */
  planNames(db: Executor, accountId: string) {
    return db
      .selectFrom('plans')
      .innerJoin('products', 'products.id', 'plans.product_id')
      .select(['plans.id', 'plans.name'])
      .where('products.account_id', '=', accountId)
      .execute()
  },

  /** Live plans of several products, in display order. */
  plansOf(db: Executor, productIds: string[]) {
    if (!productIds.length) return Promise.resolve([] as PlanRow[])
    return db
      .selectFrom('plans')
      .selectAll()
      .where('product_id', 'in', productIds)
      .where('archived_at', 'is', null)
      .orderBy('position')
      .execute()
  },

  findAnyPlan(db: Executor, planId: string) {
    return db.selectFrom('plans').selectAll().where('id', '=', planId).executeTakeFirst()
  },

  deleteProduct(db: Executor, accountId: string, id: string) {
    return db
      .deleteFrom('products')
      .where('id', '=', id)
      .where('account_id', '=', accountId)
      .executeTakeFirst()
  },

  deletePlansOf(db: Executor, productId: string) {
    return db.deleteFrom('plans').where('product_id', '=', productId).execute()
  },
}
