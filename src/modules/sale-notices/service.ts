// Sale notices, coalesced (issue 13, launch day). A sale after a quiet spell opens a window of
// WINDOW_MS and is told to the owner at once; the other sales of that window are told in one
// summary after it ends (jobs.ts). So an owner gets at most two mails a minute however fast the
// launch sells: Gmail refuses an account's mail for about a day past 60 a minute.
import type { Outbox } from '../../deps.ts'
import type { Tx } from '../../kit/db.ts'
import { uuidv7 } from '../../kit/ids.ts'
import type { PaidOrder, SaleNotice } from '../orders/service.ts'
import { saleNoticesRepo as repo } from './repo.ts'

export const WINDOW_MS = 60_000

/**
 * Whether the sale is told on its own: it is when no window covers it, and it opens the next
 * (in the caller's transaction). A sale inside a window, as its snapshot saw it, writes nothing,
 * and those racing to open one never wait on each other (repo.ts): sales of one account do not
 * meet on the account's row.
 */
export async function noticedOnItsOwn(
  tx: Tx,
  ctx: Pick<Outbox, 'clock'>,
  notify: SaleNotice,
  order: Pick<PaidOrder, 'id' | 'account_id'>,
  paidAt: Date,
): Promise<boolean> {
  if (notify.windowUntil && notify.windowUntil > paidAt) return false
  const opened = await repo.open(tx, {
    id: uuidv7(ctx.clock.now().getTime()),
    accountId: order.account_id,
    orderId: order.id,
    paidAt,
    endsAt: new Date(paidAt.getTime() + WINDOW_MS),
  })
  return opened !== null
}
