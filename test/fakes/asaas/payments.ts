// POST/GET /v3/payments: one charge, or one per installment, for PIX, BOLETO, CREDIT_CARD or
// UNDEFINED. A card sent with the request is charged at once: approved → 200 CONFIRMED,
// declined → 400 and nothing is kept (docs: create new payment with credit card).
import { formatBrl } from '../../../src/kit/money.ts'
import type { BillingType, Book, Customer, Payment, SavedCard, SplitRule } from './book.ts'
import { fail, notFound, Problems } from './errors.ts'
import { addMonths, newId } from './format.ts'
import { listJson, paymentJson } from './json.ts'
import {
  type CardInput,
  given,
  readAmount,
  readCard,
  readCardHolder,
  readDueDate,
  readRemoteIp,
} from './validate.ts'

const BILLING_TYPES: BillingType[] = ['BOLETO', 'CREDIT_CARD', 'PIX', 'UNDEFINED']

/** The sandbox's declining test cards; every other well-formed card is approved. */
export const DECLINED_CARDS = ['5184019740373151', '4916561358240741']
/** The sandbox's documented approved card. */
export const APPROVED_CARD = '4444444444444444'

type Body = Record<string, unknown>

/** One amount per payment: `[value]`, or the installments (installmentValue or totalValue). */
function readAmounts(problems: Problems, body: Body, billingType: unknown, book: Book): number[] {
  const { minimumValueCents: minimum, maxCardInstallments } = book.limits
  const count = body.installmentCount
  if (!given(count)) {
    const value = readAmount(problems, body.value, 'value', minimum)
    return value === null ? [] : [value]
  }
  if (typeof count !== 'number' || !Number.isInteger(count) || count < 2) {
    problems.add('invalid_installmentCount', 'Uma cobrança parcelada deve ter 2 ou mais parcelas.')
    return []
  }
  if (billingType === 'CREDIT_CARD' && count > maxCardInstallments) {
    problems.add(
      'invalid_installmentCount',
      `O parcelamento no cartão de crédito permite no máximo ${maxCardInstallments} parcelas.`,
    )
    return []
  }
  if (given(body.installmentValue)) {
    const each = readAmount(problems, body.installmentValue, 'installmentValue', minimum)
    return each === null ? [] : Array<number>(count).fill(each)
  }
  if (!given(body.totalValue)) {
    problems.add('invalid_installmentValue', 'Informe installmentValue ou totalValue.')
    return []
  }
  const total = readAmount(problems, body.totalValue, 'totalValue')
  if (total === null) return []
  const each = Math.floor(total / count)
  if (each < minimum) {
    problems.add('invalid_totalValue', `Cada parcela deve valer ao menos ${formatBrl(minimum)}.`)
    return []
  }
  // The last installment takes the centavos the division leaves.
  return [...Array<number>(count - 1).fill(each), total - each * (count - 1)]
}

/** `split`: known wallets of other accounts, fixedValue and/or percentualValue, within the value. */
function readSplit(problems: Problems, raw: unknown, book: Book, valueCents: number): SplitRule[] {
  if (!given(raw)) return []
  if (!Array.isArray(raw)) {
    problems.add('invalid_split', 'O campo split deve ser uma lista.')
    return []
  }
  let fixedCents = 0
  let percent = 0
  const rules = raw.map((entry: Body) => {
    const { walletId, fixedValue, percentualValue } = entry ?? {}
    if (typeof walletId !== 'string' || !book.wallets.has(walletId))
      problems.add('invalid_walletId', `A carteira ${String(walletId)} não foi encontrada.`)
    if (!given(fixedValue) && !given(percentualValue))
      problems.add('invalid_split', 'Informe fixedValue ou percentualValue em cada split.')
    if (given(fixedValue)) fixedCents += readAmount(problems, fixedValue, 'fixedValue') ?? 0
    if (given(percentualValue)) {
      if (typeof percentualValue !== 'number' || percentualValue <= 0 || percentualValue > 100)
        problems.add('invalid_split', 'O percentualValue deve estar entre 0 e 100.')
      else percent += percentualValue
    }
    return entry as unknown as SplitRule
  })
  if (percent > 100 || fixedCents + (valueCents * percent) / 100 > valueCents)
    problems.add(
      'invalid_split',
      'O valor total do split não pode ultrapassar o valor da cobrança.',
    )
  return rules
}

type CardCharge = { card: CardInput } | { saved: SavedCard }

/** Card data, or a token from an earlier charge of this customer; null = pay on the invoice. */
function readCardCharge(problems: Problems, body: Body, book: Book, customer?: Customer) {
  const hasCard = given(body.creditCard) || given(body.creditCardHolderInfo)
  if (!given(body.creditCardToken) && !hasCard) return null
  readRemoteIp(problems, body.remoteIp)
  if (given(body.creditCardToken)) {
    const saved = book.cardTokens.get(String(body.creditCardToken))
    if (saved && saved.customer === customer?.id) return { saved }
    problems.add('invalid_creditCardToken', 'O token de cartão de crédito informado é inválido.')
    return null
  }
  const card = readCard(problems, body.creditCard, book.today())
  const holderOk = readCardHolder(problems, body.creditCardHolderInfo)
  return card && holderOk ? { card } : null
}

function brandOf(number: string): string {
  if (number.startsWith('4')) return 'VISA'
  if (/^(5[1-5]|2[2-7])/.test(number)) return 'MASTERCARD'
  if (/^3[47]/.test(number)) return 'AMEX'
  return 'ELO'
}

/** Charges the card: a declined one answers 400 and leaves nothing behind. */
function charge(book: Book, customer: string, charge: CardCharge): SavedCard {
  if ('saved' in charge) return charge.saved
  const { number } = charge.card
  if (DECLINED_CARDS.includes(number))
    fail(
      400,
      'invalid_creditCard',
      'Transação não autorizada. Verifique os dados do cartão de crédito e tente novamente.',
    )
  const saved = { customer, last4: number.slice(-4), brand: brandOf(number), token: newId.uuid() }
  book.cardTokens.set(saved.token, saved)
  return saved
}

export function createPayment(book: Book, body: Body) {
  const problems = new Problems()
  const customer = typeof body.customer === 'string' ? book.customers.get(body.customer) : undefined
  if (!customer) problems.add('invalid_customer', 'Cliente inválido ou não informado.')
  const billingType = body.billingType as BillingType
  if (!BILLING_TYPES.includes(billingType))
    problems.add('invalid_billingType', 'Informe BOLETO, CREDIT_CARD, PIX ou UNDEFINED.')
  const dueDate = readDueDate(problems, body.dueDate, book.today())
  const amounts = readAmounts(problems, body, billingType, book)
  const description = given(body.description) ? String(body.description) : null
  if (description !== null && description.length > 500)
    problems.add('invalid_description', 'A descrição pode ter no máximo 500 caracteres.')
  const split = readSplit(problems, body.split, book, Math.min(...amounts))
  const card = billingType === 'CREDIT_CARD' ? readCardCharge(problems, body, book, customer) : null
  problems.throwIfAny()

  const saved = card ? charge(book, customer!.id, card) : null
  const installment = amounts.length > 1 ? newId.uuid() : null
  const today = book.today()
  const payments = amounts.map((valueCents, i): Payment => {
    const due = addMonths(dueDate!, i)
    return {
      id: newId.payment(),
      dateCreated: today,
      customer: customer!.id,
      billingType,
      status: saved ? 'CONFIRMED' : 'PENDING',
      valueCents,
      originalValueCents: null,
      dueDate: due,
      originalDueDate: due,
      description,
      externalReference: given(body.externalReference) ? String(body.externalReference) : null,
      installment,
      installmentNumber: installment ? i + 1 : null,
      confirmedDate: saved ? today : null,
      paymentDate: null,
      clientPaymentDate: saved ? today : null,
      creditDate: null,
      deleted: false,
      nossoNumero: ['BOLETO', 'UNDEFINED'].includes(billingType) ? book.nextNossoNumero() : null,
      card: saved,
      split,
      refunds: [],
      chargeback: null,
    }
  })
  if (installment) {
    const paymentIds = payments.map((p) => p.id)
    book.installments.set(installment, {
      id: installment,
      dateCreated: today,
      customer: customer!.id,
      billingType,
      paymentIds,
    })
  }
  for (const payment of payments) {
    book.payments.set(payment.id, payment)
    book.emitPayment('PAYMENT_CREATED', payment)
    if (saved) book.emitPayment('PAYMENT_CONFIRMED', payment)
  }
  return paymentJson(payments[0]!, book.origin)
}

/** A removed payment still reads back, with `deleted: true`. */
export function findPayment(book: Book, id: string): Payment {
  const payment = book.payments.get(id)
  if (!payment) notFound()
  return payment
}

/** Filters customer, billingType, status, externalReference, installment; removed ones are hidden. */
export function listPayments(book: Book, query: URLSearchParams) {
  const filters = ['customer', 'billingType', 'status', 'externalReference', 'installment'] as const
  const matches = [...book.payments.values()].filter(
    (p) =>
      !p.deleted &&
      filters.every((field) => query.get(field) === null || String(p[field]) === query.get(field)),
  )
  return listJson(
    matches.map((p) => paymentJson(p, book.origin)),
    query,
  )
}
