// Sale notice windows (service.ts): the account's mark of its latest window, the windows waiting
// for their summary, and the sales a summary tells. The account's setting and owner are the
// accounts module's to read.
import { type Selectable, sql } from 'kysely'
import type { Executor } from '../../kit/db.ts'
import type { DB } from '../../kit/db-schema.ts'

export type DueWindow = Selectable<DB['sale_notice_windows']>

export interface ProductSales {
  product_name: string
  sales: number
  amount_cents: number
}

export const saleNoticesRepo = {
  /**
   * Opens the account's next window, from where its latest ended to `endsAt`, when none covers
   * `paidAt`; its id, or null when one does. Run only by a sale whose snapshot saw no window.
   * The row is locked SKIP LOCKED, its condition rechecked on its newest version: of sales racing
   * to open a window, one does and the others skip the row instead of waiting on it (no sale
   * waits here, so none can deadlock with the ledger's slots another holds). Windows tile time,
   * each starting where the latest ended, so a sale that skipped falls in the window its racer
   * opens (or, should that roll back, the next one) and is told in that window's summary.
   */
  async open(
    tx: Executor,
    v: { id: string; accountId: string; orderId: string; paidAt: Date; endsAt: Date },
  ): Promise<string | null> {
    const { rows } = await sql<{ id: string }>`
      WITH opened AS (
        UPDATE accounts
        SET sale_notice_from = coalesce(sale_notice_until, created_at),
          sale_notice_until = ${v.endsAt}
        WHERE id IN (
          SELECT id FROM accounts
          WHERE id = ${v.accountId}
            AND (sale_notice_until IS NULL OR sale_notice_until <= ${v.paidAt})
          FOR NO KEY UPDATE SKIP LOCKED
        )
        RETURNING id, sale_notice_from, sale_notice_until
      )
      INSERT INTO sale_notice_windows (id, account_id, opened_by, starts_at, ends_at)
      SELECT ${v.id}, id, ${v.orderId}, sale_notice_from, sale_notice_until FROM opened
      RETURNING id`.execute(tx)
    return rows[0]?.id ?? null
  },

  /** Windows ended before `endedBefore` (none summarized yet: that deletes them), locked. */
  lockDue(tx: Executor, endedBefore: Date, limit: number): Promise<DueWindow[]> {
    return tx
      .selectFrom('sale_notice_windows')
      .selectAll()
      .where('ends_at', '<=', endedBefore)
      .orderBy('ends_at')
      .limit(limit)
      .forUpdate()
      .skipLocked()
      .execute()
  },

  /** The window's sales but its opener's, per product, the best-selling first. */
  async salesIn(tx: Executor, w: DueWindow): Promise<ProductSales[]> {
    const { rows } = await sql<ProductSales>`
      SELECT p.name AS product_name, count(*)::int AS sales,
        sum(o.amount_cents)::int8 AS amount_cents
      FROM orders o
      JOIN products p ON p.id = o.product_id
      WHERE o.account_id = ${w.account_id} AND o.paid_at >= ${w.starts_at}
        AND o.paid_at < ${w.ends_at} AND o.id <> ${w.opened_by}
      GROUP BY o.product_id, p.name
      ORDER BY sum(o.amount_cents) DESC, p.name`.execute(tx)
    return rows
  },

  async remove(tx: Executor, id: string) {
    await sql`DELETE FROM sale_notice_windows WHERE id = ${id}`.execute(tx)
  },
}
