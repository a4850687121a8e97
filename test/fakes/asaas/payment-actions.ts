// What happens to a payment after it exists: refund, removal (DELETE), and the events only the
// payer, the bank or the card network cause (paid, overdue, chargeback), which tests trigger.
import { formatBrl } from '../../../src/kit/money.ts'
import type { Book, Payment } from './book.ts'
import { fail, notFound, Problems } from './errors.ts'
import { installmentJson, paymentJson, refundableCents } from './json.ts'
import { given, readAmount } from './validate.ts'

/** Card payments refund once confirmed or received; Pix ones once received (docs: refund). */
const REFUNDABLE: Record<string, string[]> = {
  CREDIT_CARD: ['CONFIRMED', 'RECEIVED'],
  PIX: ['RECEIVED'],
}

function refund(book: Book, payment: Payment, cents: number, description: string | null): void {
  const left = refundableCents(payment)
  if (cents > left)
    fail(
      400,
      'invalid_value',
      `O valor do estorno excede o saldo da cobrança (${formatBrl(left)}).`,
    )
  // Received money left the account balance; a confirmed card charge is only cancelled.
  const fromBalance = payment.status === 'RECEIVED'
  if (fromBalance && book.balanceCents < cents)
    fail(400, 'invalid_action', 'Saldo insuficiente para realizar o estorno.')
  if (fromBalance) book.balanceCents -= cents
  payment.refunds.push({ dateCreated: book.stamp(), valueCents: cents, description })
  if (cents === left) {
    payment.status = 'REFUNDED'
    book.emitPayment('PAYMENT_REFUNDED', payment)
  } else {
    book.emitPayment('PAYMENT_PARTIALLY_REFUNDED', payment)
  }
}

function assertRefundable(payment: Payment): void {
  if (!REFUNDABLE[payment.billingType]?.includes(payment.status))
    fail(400, 'invalid_action', 'Esta cobrança não pode ser estornada.')
}

/** POST /payments/{id}/refund `{ value?, description? }`: no value = all that is left. */
export function refundPayment(book: Book, id: string, body: Record<string, unknown>) {
  const payment = book.livePayment(id)
  assertRefundable(payment)
  const problems = new Problems()
  const cents = given(body.value)
    ? readAmount(problems, body.value, 'value')
    : refundableCents(payment)
  problems.throwIfAny()
  refund(book, payment, cents!, given(body.description) ? String(body.description) : null)
  return paymentJson(payment, book.origin)
}

/** DELETE /payments/{id}: only charges awaiting payment or overdue can be removed. */
export function deletePayment(book: Book, id: string) {
  const payment = book.livePayment(id)
  if (payment.status !== 'PENDING' && payment.status !== 'OVERDUE')
    fail(
      400,
      'invalid_action',
      'Somente cobranças aguardando pagamento ou vencidas podem ser removidas.',
    )
  payment.deleted = true
  book.emitPayment('PAYMENT_DELETED', payment)
  return { deleted: true, id }
}

function installmentOf(book: Book, id: string) {
  const installment = book.installments.get(id)
  if (!installment) notFound()
  return { installment, payments: installment.paymentIds.map((pid) => book.payments.get(pid)!) }
}

export function getInstallment(book: Book, id: string) {
  const { installment, payments } = installmentOf(book, id)
  return installmentJson(installment, payments)
}

/** POST /installments/{id}/refund: refunds every installment of a card purchase. */
export function refundInstallment(book: Book, id: string) {
  const { installment, payments } = installmentOf(book, id)
  for (const payment of payments) assertRefundable(payment)
  for (const payment of payments) refund(book, payment, refundableCents(payment), null)
  return installmentJson(installment, payments)
}

/**
 * The payer pays. Pix and boleto go straight to RECEIVED (balance credited); a card charge the
 * buyer completes on the invoice becomes CONFIRMED, and a confirmed one settles to RECEIVED.
 * `paidCents` lets a test pay another amount than charged (value becomes what was paid).
 */
export function pay(book: Book, id: string, paidCents?: number) {
  const payment = book.livePayment(id)
  const today = book.today()
  if (payment.billingType === 'CREDIT_CARD' && payment.status === 'PENDING') {
    Object.assign(payment, { status: 'CONFIRMED', confirmedDate: today, clientPaymentDate: today })
    book.emitPayment('PAYMENT_CONFIRMED', payment)
    return paymentJson(payment, book.origin)
  }
  const awaiting =
    payment.billingType === 'CREDIT_CARD'
      ? payment.status === 'CONFIRMED'
      : payment.status === 'PENDING' || payment.status === 'OVERDUE'
  if (!awaiting) fail(400, 'invalid_action', 'Esta cobrança não está aguardando pagamento.')
  if (paidCents !== undefined && paidCents !== payment.valueCents) {
    payment.originalValueCents = payment.valueCents
    payment.valueCents = paidCents
  }
  Object.assign(payment, {
    status: 'RECEIVED',
    confirmedDate: payment.confirmedDate ?? today,
    paymentDate: today,
    clientPaymentDate: payment.clientPaymentDate ?? today,
    creditDate: today,
  })
  book.balanceCents += payment.valueCents
  book.emitPayment('PAYMENT_RECEIVED', payment)
  return paymentJson(payment, book.origin)
}

/** The due date passed without payment (Asaas does this itself; here a test decides when). */
export function markOverdue(book: Book, id: string) {
  const payment = book.livePayment(id)
  if (payment.status !== 'PENDING') fail(400, 'invalid_action', 'A cobrança não está pendente.')
  payment.status = 'OVERDUE'
  book.emitPayment('PAYMENT_OVERDUE', payment)
  return paymentJson(payment, book.origin)
}

/** The cardholder disputes a card payment with the issuer. */
export function chargeback(book: Book, id: string, reason = 'PROCESS_ERROR') {
  const payment = book.livePayment(id)
  if (payment.billingType !== 'CREDIT_CARD' || !REFUNDABLE.CREDIT_CARD!.includes(payment.status))
    fail(400, 'invalid_action', 'Somente cobranças de cartão pagas recebem chargeback.')
  payment.status = 'CHARGEBACK_REQUESTED'
  payment.chargeback = { status: 'REQUESTED', reason }
  book.emitPayment('PAYMENT_CHARGEBACK_REQUESTED', payment)
  return paymentJson(payment, book.origin)
}
