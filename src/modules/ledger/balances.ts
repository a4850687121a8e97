// The seed's balance objects (SPEC §8): one statement each over the holder's ≤ 16 running
// balance slot rows (the views sum them), whatever the number of orders. A holder with no row
// yet has zero everywhere.
import type { Executor } from '../../kit/db.ts'
import { toBrl } from '../../kit/money.ts'
import { ledgerRepo as repo } from './repo.ts'

export async function creatorBalance(db: Executor, accountId: string) {
  const b = await repo.creatorBalance(db, accountId)
  return {
    available: toBrl(b?.available ?? 0),
    paid_total: toBrl(b?.paid_total ?? 0),
    refunded_total: toBrl(b?.refunded_total ?? 0),
    withdrawn_total: toBrl(b?.withdrawn_total ?? 0),
    coproducer_owed: toBrl(b?.coproducer_owed ?? 0),
    affiliate_owed: toBrl(b?.affiliate_owed ?? 0),
  }
}

export async function coproducerBalance(db: Executor, userId: string) {
  const b = await repo.coproducerBalance(db, userId)
  return {
    available: toBrl(b?.available ?? 0),
    earned_total: toBrl(b?.earned_total ?? 0),
    refunded_total: toBrl(b?.refunded_total ?? 0),
    withdrawn: toBrl(b?.withdrawn ?? 0),
  }
}

export async function affiliateBalance(db: Executor, userId: string) {
  const b = await repo.affiliateBalance(db, userId)
  return {
    available: toBrl(b?.available ?? 0),
    paid_total: toBrl(b?.paid_total ?? 0),
    rejected_total: toBrl(b?.rejected_total ?? 0),
    pending_count: b?.pending_count ?? 0,
    withdrawn: toBrl(b?.withdrawn ?? 0),
  }
}
