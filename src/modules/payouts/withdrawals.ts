// Withdrawals (SPEC §9): a creator (from an account's balance), a co-producer or an affiliate
// (from their own) asks for money to be sent to their verified PIX key; a platform admin
// approves, then pays (the gateway makes the transfer) or rejects (the money goes back).
// Pending → approved → paid; pending | approved → rejected; any other move is a 409.
//
// Lock order, as every money flow (docs/ARCHITECTURE.md "Money"): the holder's balance row
// (lockAvailable) first, then the withdrawal row.
import type { Deps, Outbox } from '../../deps.ts'
import { type Executor, type Tx, withTx } from '../../kit/db.ts'
import { AppError, BadRequest, Conflict, NotFound } from '../../kit/errors.ts'
import { pageWindow, toPage } from '../../kit/http/pagination.ts'
import { iso } from '../../kit/http/schemas.ts'
import { isUuid, uuidv7 } from '../../kit/ids.ts'
import { toBrl, toCents } from '../../kit/money.ts'
import { accountOwner, findUser } from '../accounts/service.ts'
import { queueEmail } from '../email/service.ts'
import { withdrawalStatusEmail } from '../email/templates.ts'
import {
  type Holder,
  holdWithdrawal,
  lockAvailable,
  releaseWithdrawal,
  settleWithdrawal,
} from '../ledger/service.ts'
import { type CheckVerdict, openCheck, settleCheck } from '../payments/checks.ts'
import { GatewayRefused } from '../payments/gateway.ts'
import { emitEvent } from '../webhooks/service.ts'
import { parseEndToEndId } from './end-to-end-id.ts'
import { maskPixKey } from './pix-key.ts'
import { verifiedPixKey } from './pix-keys.ts'
import type { PixTransferResult } from './provider.ts'
import { payoutsRepo as repo, type WithdrawalRow } from './repo.ts'
import type { WithdrawalListQuery, WithdrawalOut } from './schema.ts'

type Ctx = Outbox

/** A transfer the bank is still processing is looked at again after this long. */
const TRANSFER_LOOK_AGAIN_MS = 10 * 60_000
export const MINIMUM_WITHDRAWAL_CENTS = 2000
export const BELOW_MINIMUM = 'O valor mínimo para saque é R$ 20,00'
export const PENDING_WITHDRAWAL = 'Você já tem um saque pendente'
const NOT_FOUND = 'Saque não encontrado'
const NEGATIVE_BALANCE =
  'O saldo de quem pediu este saque ficou negativo (reembolso ou chargeback depois do pedido); recuse o saque'
const TRANSFER_STARTED = 'A transferência Pix deste saque já foi iniciada; conclua o pagamento'
const END_TO_END_MISSING =
  'Informe o end_to_end_id do Pix enviado: os saques são pagos manualmente (PAYOUT_PROVIDER=manual)'
const END_TO_END_INVALID =
  'end_to_end_id inválido: são 32 caracteres, E + ISPB (8 dígitos) + data e hora (aaaaMMddHHmm) + 11 letras ou dígitos'
const END_TO_END_NOT_MANUAL =
  'end_to_end_id só é informado em pagamentos manuais: este saque é transferido pelo provedor de pagamentos'
const END_TO_END_USED = 'Este end_to_end_id já foi registrado em outro saque'
const TRANSFER_UNKNOWN =
  'Não foi possível confirmar a transferência Pix com o banco; tente pagar de novo (o mesmo saque nunca é transferido duas vezes)'

const STATUS_LABEL = {
  pending: 'pendente',
  approved: 'aprovado',
  paid: 'pago',
  rejected: 'recusado',
}
const wrongState = (row: WithdrawalRow, action: string) =>
  new Conflict(`Este saque está ${STATUS_LABEL[row.status]} e não pode ser ${action}`)

/** The first check of every withdrawal (SPEC §9): 400 below R$ 20,00. */
export function checkedAmountCents(amountBrl: number): number {
  const cents = toCents(amountBrl)
  if (cents < MINIMUM_WITHDRAWAL_CENTS) throw new BadRequest(BELOW_MINIMUM)
  return cents
}

export function withdrawalOut(w: WithdrawalRow): WithdrawalOut {
  return {
    id: w.id,
    role: w.role,
    tenant_id: w.account_id,
    user_id: w.user_id,
    amount: toBrl(w.amount_cents),
    status: w.status,
    admin_note: w.admin_note,
    pix_key: maskPixKey(w.pix_key_type, w.pix_key),
    pix_key_type: w.pix_key_type,
    created_at: iso(w.created_at)!,
    approved_at: iso(w.approved_at),
    paid_at: iso(w.paid_at),
    rejected_at: iso(w.rejected_at),
    transfer_in_progress: w.status === 'approved' && w.transfer_started_at !== null,
    end_to_end_id: w.end_to_end_id,
  }
}

const holderOf = (w: Pick<WithdrawalRow, 'role' | 'account_id' | 'user_id'>): Holder =>
  w.role === 'creator'
    ? { kind: 'creator', accountId: w.account_id! }
    : { kind: w.role, userId: w.user_id }

/** Tells the requester (e-mail) and, for a creator's withdrawal, the account's webhooks. */
async function announce(tx: Tx, ctx: Ctx, w: WithdrawalRow) {
  const user = await findUser(tx, w.user_id)
  await queueEmail(tx, ctx, {
    to: user.email,
    dedupeKey: `withdrawal:${w.id}:${w.status}`,
    ...withdrawalStatusEmail({
      name: user.name,
      amountCents: w.amount_cents,
      status: w.status,
      adminNote: w.admin_note,
      maskedPixKey: maskPixKey(w.pix_key_type, w.pix_key),
    }),
  })
  if (!w.account_id) return
  await emitEvent(tx, ctx, {
    accountId: w.account_id,
    type: 'withdrawal.updated',
    data: {
      withdrawal_id: w.id,
      tenant_id: w.account_id,
      amount: toBrl(w.amount_cents),
      status: w.status,
      admin_note: w.admin_note,
    },
  })
}

/**
 * After the amount check and (for creators) the ownership check: the key rules, then one
 * pending per requester, then the balance (SPEC §9's order). The balance row lock serializes
 * concurrent requests of one holder, so the pending check and the hold see each other.
 */
export async function requestWithdrawal(
  tx: Tx,
  ctx: Ctx,
  input: { holder: Holder; userId: string; amountCents: number },
) {
  const { holder, userId, amountCents } = input
  const key = await verifiedPixKey(tx, userId)
  const balanceBefore = await lockAvailable(tx, holder)
  const who = {
    role: holder.kind,
    accountId: holder.kind === 'creator' ? holder.accountId : null,
    userId,
  }
  if (await repo.findPending(tx, who)) throw new Conflict(PENDING_WITHDRAWAL)
  const now = ctx.clock.now()
  const row = await repo.insert(tx, {
    id: uuidv7(now.getTime()),
    role: holder.kind,
    account_id: who.accountId,
    user_id: userId,
    amount_cents: amountCents,
    status: 'pending',
    pix_key: key.pix_key,
    pix_key_type: key.pix_key_type,
    created_at: now,
    updated_at: now,
  })
  if (!row) throw new Conflict(PENDING_WITHDRAWAL)
  await holdWithdrawal(tx, ctx, { holder, withdrawalId: row.id, amountCents })
  await announce(tx, ctx, row)
  return { success: true, withdrawal_id: row.id, balance_before: toBrl(balanceBefore) }
}

/** A creator's withdrawal: only the account's owner may take its money (404 otherwise). */
export async function requestCreatorWithdrawal(
  tx: Tx,
  ctx: Ctx,
  input: { accountId: string; userId: string; amountCents: number },
) {
  if ((await accountOwner(tx, input.accountId))?.id !== input.userId)
    throw new NotFound('Account not found')
  return requestWithdrawal(tx, ctx, {
    holder: { kind: 'creator', accountId: input.accountId },
    userId: input.userId,
    amountCents: input.amountCents,
  })
}

/** Locks in the fixed order: the holder's balance row, then the withdrawal. */
async function lockForReview(tx: Tx, id: string) {
  const found = await repo.findById(tx, id)
  if (!found) throw new NotFound(NOT_FOUND)
  const available = await lockAvailable(tx, holderOf(found))
  const row = (await repo.lock(tx, id))!
  return { row, available }
}

async function moveTo(tx: Tx, ctx: Ctx, row: WithdrawalRow, patch: Partial<WithdrawalRow>) {
  const moved = await repo.update(tx, row.id, { ...patch, updated_at: ctx.clock.now() })
  await announce(tx, ctx, moved)
  return moved
}

export async function approveWithdrawal(tx: Tx, ctx: Ctx, id: string) {
  const { row, available } = await lockForReview(tx, id)
  if (row.status !== 'pending') throw wrongState(row, 'aprovado')
  if (available < 0) throw new Conflict(NEGATIVE_BALANCE)
  return withdrawalOut(
    await moveTo(tx, ctx, row, { status: 'approved', approved_at: ctx.clock.now() }),
  )
}

async function reject(tx: Tx, ctx: Ctx, row: WithdrawalRow, note: string) {
  const moved = await moveTo(tx, ctx, row, {
    status: 'rejected',
    admin_note: note,
    rejected_at: ctx.clock.now(),
  })
  await releaseWithdrawal(tx, ctx, { withdrawalId: row.id })
  return moved
}

export async function rejectWithdrawal(tx: Tx, ctx: Ctx, id: string, note: string) {
  const { row } = await lockForReview(tx, id)
  if (row.status !== 'pending' && row.status !== 'approved') throw wrongState(row, 'recusado')
  if (row.transfer_started_at) throw new Conflict(TRANSFER_STARTED)
  return withdrawalOut(await reject(tx, ctx, row, note))
}

/**
 * Pays an approved withdrawal: marks the transfer as started (from then on it cannot be
 * rejected) and opens the withdrawal's gateway check, makes the PIX transfer outside any
 * transaction with the withdrawal id as the gateway's idempotency key, then records the answer.
 * A refused transfer rejects the withdrawal (the money goes back, the requester is told why); an
 * unknown answer leaves it approved and is a 502: paying again repeats the same transfer, never
 * a second one, and meanwhile reconciliation looks the transfer up and records what it finds.
 */
export async function payWithdrawal(
  deps: Deps,
  id: string,
  input: { endToEndId?: string | undefined } = {},
): Promise<WithdrawalOut> {
  if (!deps.payouts.automatic) return payManually(deps, id, input.endToEndId)
  if (input.endToEndId !== undefined) throw new BadRequest(END_TO_END_NOT_MANUAL)
  const started = await withTx(deps.db, async (tx) => {
    const { row, available } = await lockForReview(tx, id)
    if (row.status === 'paid') return { settled: row }
    if (row.status !== 'approved') throw wrongState(row, 'pago')
    if (row.transfer_started_at) return { toTransfer: row }
    if (available < 0) throw new Conflict(NEGATIVE_BALANCE)
    const now = deps.clock.now()
    await openCheck(tx, deps, { id, kind: 'transfer' })
    return { toTransfer: await repo.update(tx, id, { transfer_started_at: now, updated_at: now }) }
  })
  if (started.settled) return withdrawalOut(started.settled)
  const w = started.toTransfer!
  let result: PixTransferResult
  try {
    result = await deps.payouts.transferPix({
      reference: w.id,
      amountCents: w.amount_cents,
      pixKey: w.pix_key,
      pixKeyType: w.pix_key_type,
      description: 'Saque Vitrine',
    })
  } catch (error) {
    if (error instanceof GatewayRefused) {
      // Nothing was sent: the same as a bank refusal, the money goes back with the reason.
      result = { status: 'failed', gatewayTransferId: null, failureReason: error.reason }
      return withdrawalOut(await withTx(deps.db, (tx) => recordTransfer(tx, deps, id, result)))
    }
    deps.log.warn({ err: error, withdrawalId: w.id }, 'PIX transfer answer unknown')
    throw new AppError(502, TRANSFER_UNKNOWN, 'bad_gateway')
  }
  return withdrawalOut(await withTx(deps.db, (tx) => recordTransfer(tx, deps, id, result)))
}

/**
 * A manual payout: the admin sent the PIX from the platform's bank and records its end-to-end
 * id; the withdrawal is paid in one transaction. Recording the same id again answers the same;
 * an id already recorded on another withdrawal is a 409 (a PIX pays once).
 */
async function payManually(deps: Deps, id: string, typed: string | undefined) {
  if (typed === undefined || !typed.trim()) throw new BadRequest(END_TO_END_MISSING)
  const endToEndId = parseEndToEndId(typed)
  if (!endToEndId) throw new BadRequest(END_TO_END_INVALID)
  try {
    return withdrawalOut(
      await withTx(deps.db, async (tx) => {
        const { row, available } = await lockForReview(tx, id)
        if (row.status === 'paid' && row.end_to_end_id === endToEndId) return row
        if (row.status !== 'approved') throw wrongState(row, 'pago')
        if (available < 0) throw new Conflict(NEGATIVE_BALANCE)
        if (await repo.findByEndToEndId(tx, endToEndId)) throw new Conflict(END_TO_END_USED)
        const now = deps.clock.now()
        const paid = await moveTo(tx, deps, row, {
          status: 'paid',
          paid_at: now,
          transfer_started_at: row.transfer_started_at ?? now,
          end_to_end_id: endToEndId,
        })
        await settleWithdrawal(tx, deps, { withdrawalId: row.id })
        return paid
      }),
    )
  } catch (error) {
    // Two withdrawals paid with one id at the same instant: the unique index turns one away.
    if ((error as { code?: string }).code === UNIQUE_VIOLATION) throw new Conflict(END_TO_END_USED)
    throw error
  }
}

const UNIQUE_VIOLATION = '23505'

/**
 * The provider's answer to a withdrawal's transfer: paid, or rejected with the money back. A
 * transfer still on its way (`pending`) leaves the withdrawal approved with its check open: the
 * provider's callback or reconciliation records the end.
 */
async function recordTransfer(tx: Tx, ctx: Ctx, id: string, result: PixTransferResult) {
  const { row } = await lockForReview(tx, id)
  if (result.status === 'pending') return row
  await settleCheck(tx, ctx, id, `transfer ${result.status}`)
  if (row.status !== 'approved') return row // a concurrent pay recorded it
  if (result.status === 'failed') {
    const note = `A transferência Pix falhou: ${result.failureReason ?? 'recusada pelo banco'}`
    return reject(tx, ctx, row, note)
  }
  const now = ctx.clock.now()
  const paid = await moveTo(tx, ctx, row, {
    status: 'paid',
    paid_at: now,
    gateway_transfer_id: result.gatewayTransferId,
  })
  await settleWithdrawal(tx, ctx, { withdrawalId: row.id })
  return paid
}

/**
 * Reconciliation of a transfer whose answer never came: the gateway's answer is recorded as if
 * the pay call had received it. A transfer the gateway never made is left to the admin: the
 * withdrawal stays approved and not rejectable (a transfer could still be on its way), and
 * "Pagar" repeats the same transfer.
 */
export async function reconcileTransfer(deps: Deps, id: string): Promise<CheckVerdict> {
  const row = await repo.findById(deps.db, id)
  if (row?.status !== 'approved') return { settled: `withdrawal already ${row?.status}` }
  const result = await deps.payouts.getTransfer(id)
  if (!result) return { settled: 'no transfer at the gateway: left to the admin' }
  if (result.status === 'pending') {
    const again = new Date(deps.clock.now().getTime() + TRANSFER_LOOK_AGAIN_MS)
    return { again, note: 'transfer still on its way' }
  }
  const recorded = await withTx(deps.db, (tx) => recordTransfer(tx, deps, id, result))
  return { settled: `transfer ${result.status}: withdrawal ${recorded.status}` }
}

/** A provider's notification about a withdrawal's transfer, read back: recorded like the answer. */
export async function recordTransferNotice(deps: Deps, id: string, result: PixTransferResult) {
  // A transfer made outside Vitrine (in the provider's own panel) has no withdrawal id.
  if (!isUuid(id)) return 'unknown_withdrawal'
  const row = await repo.findById(deps.db, id)
  if (!row) return 'unknown_withdrawal'
  if (row.status === 'rejected' && result.status === 'completed') {
    // Its money went back to the balance, and the bank paid it anyway: a person must recover it.
    deps.log.error({ withdrawalId: id }, 'transfer completed for a rejected withdrawal')
  }
  const recorded = await withTx(deps.db, (tx) => recordTransfer(tx, deps, id, result))
  return `withdrawal ${recorded.status}`
}

/** A withdrawal by id, or undefined (callers outside payouts, e.g. a provider's webhook). */
export const findWithdrawal = (db: Executor, id: string) => repo.findById(db, id)

/** The admin's queue: still to decide or to pay, oldest first, with the requester's name. */
export const openWithdrawals = (db: Executor, limit: number) => repo.listOpen(db, limit)

export async function listWithdrawals(
  db: Executor,
  filter: { userId?: string },
  query: WithdrawalListQuery,
) {
  const rows = await repo.list(db, { ...filter, status: query.status, ...pageWindow(query) })
  return toPage(rows, query, withdrawalOut)
}
