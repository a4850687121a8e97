// POST/GET /v3/transfers to a Pix key (docs: transfer to accounts at another institution).
// The value leaves the balance when the transfer is created and comes back if it fails; the bank's
// answer (DONE or FAILED) is a test's to give.
import type { Book, Transfer } from './book.ts'
import { fail, Problems } from './errors.ts'
import { isCalendarDay, newId } from './format.ts'
import { listJson, transferJson } from './json.ts'
import { given, readAmount, readPixKey } from './validate.ts'

export function createTransfer(book: Book, body: Record<string, unknown>) {
  if (given(body.bankAccount) && !given(body.pixAddressKey))
    fail(400, 'invalid_action', 'Este fake só faz transferências para chaves Pix.')
  const problems = new Problems()
  const value = readAmount(problems, body.value, 'value')
  const key = readPixKey(problems, body.pixAddressKey, body.pixAddressKeyType)
  const today = book.today()
  const scheduleDate = given(body.scheduleDate) ? body.scheduleDate : today
  if (!isCalendarDay(scheduleDate) || scheduleDate < today)
    problems.add('invalid_scheduleDate', 'A data de agendamento não pode ser inferior à hoje.')
  problems.throwIfAny()
  if (value! > book.balanceCents)
    fail(400, 'invalid_value', 'Saldo insuficiente para realizar a transferência.')
  book.balanceCents -= value!
  const transfer: Transfer = {
    id: newId.uuid(),
    dateCreated: today,
    valueCents: value!,
    status: 'PENDING',
    pixAddressKey: key!.key,
    pixAddressKeyType: key!.type,
    description: given(body.description) ? String(body.description) : null,
    externalReference: given(body.externalReference) ? String(body.externalReference) : null,
    scheduleDate: scheduleDate as string,
    effectiveDate: null,
    endToEndIdentifier: null,
    failReason: null,
  }
  book.transfers.set(transfer.id, transfer)
  book.emitTransfer('TRANSFER_CREATED', transfer)
  return transferJson(transfer, book.origin)
}

export function getTransfer(book: Book, id: string) {
  return transferJson(book.transfer(id), book.origin)
}

/**
 * Only `offset` and `limit`: the docs list no filter by externalReference, so a client finding
 * its own transfer after a lost answer must match `externalReference` itself.
 */
export function listTransfers(book: Book, query: URLSearchParams) {
  const all = [...book.transfers.values()].map((t) => transferJson(t, book.origin))
  return listJson(all, query)
}

function inFlight(transfer: Transfer): void {
  if (transfer.status !== 'PENDING' && transfer.status !== 'BANK_PROCESSING')
    fail(400, 'invalid_action', `A transferência já está ${transfer.status}.`)
}

/** The receiving bank credited the key. */
export function completeTransfer(book: Book, id: string) {
  const transfer = book.transfer(id)
  inFlight(transfer)
  Object.assign(transfer, {
    status: 'DONE',
    effectiveDate: book.today(),
    endToEndIdentifier: newId.endToEnd(),
  })
  book.emitTransfer('TRANSFER_DONE', transfer)
  return transferJson(transfer, book.origin)
}

/** The transfer failed (unknown key, closed account…): the money returns to the balance. */
export function failTransfer(book: Book, id: string, reason = 'Chave Pix não encontrada.') {
  const transfer = book.transfer(id)
  inFlight(transfer)
  Object.assign(transfer, { status: 'FAILED', failReason: reason })
  book.balanceCents += transfer.valueCents
  book.emitTransfer('TRANSFER_FAILED', transfer)
  return transferJson(transfer, book.origin)
}
