// A `paid` callback of a pending order, the usual case, one round trip shorter (issue 13): the
// charge's lock, the order marked paid, the inbox row and the charge's status in one statement,
// where applyCallback's long way (service.ts) first reads the charge locked, decides, then
// writes. It pays only where that long way would decide `paid` (the charge the gateway's, its
// order pending at the amount the gateway holds, the notification new); anything else writes
// nothing and the long way decides. Concurrent callbacks of one charge still queue on its lock,
// and one that waited finds the order paid by then and writes nothing.

import type { Insertable } from 'kysely'
import type { Deps, Outbox } from '../../deps.ts'
import type { Tx } from '../../kit/db.ts'
import type { DB } from '../../kit/db-schema.ts'
import { writeParts } from '../../kit/statement.ts'
import type { Fragment } from '../../kit/template.ts'
import { markedPaid, markPaidPart, type Paid } from '../orders/service.ts'
import { paidOrderEffects } from './confirm.ts'
import { paymentsRepo as repo } from './repo.ts'

const SELECT_PAID: Fragment = { sql: 'SELECT * FROM paid', parameters: [] }

/** True when this callback paid the order (with every effect); false: it wrote nothing. */
export async function payAtOnce(
  tx: Tx,
  ctx: Outbox & Pick<Deps, 'config'>,
  /** The callback's inbox row, its outcome `paid`; `received_at` is when the order is paid. */
  inboxRow: Insertable<DB['payment_callbacks']>,
  /** What the gateway holds for the charge. */
  amountCents: number,
  /** The caller runs nothing more in the transaction: the sale's statement commits it. */
  { endsTransaction = false } = {},
): Promise<boolean> {
  const paidAt = inboxRow.received_at as Date
  const { before, after } = repo.paidAtOnceParts(inboxRow, amountCents)
  const [row] = await writeParts<Paid>(
    tx,
    [...before, markPaidPart(repo.lockedChargeOrder, paidAt), ...after],
    SELECT_PAID,
  )
  if (!row) return false
  await paidOrderEffects(tx, ctx, markedPaid(row), paidAt, { endsTransaction })
  return true
}
