// The endpoints: the API under /v3 (as documented), and the fake's own controls under /_fake,
// which stand for what the payer, the banks and the network do and for faults to inject.
import { toCents } from '../../../src/kit/money.ts'
import { identificationField, pixQrCode } from './artifacts.ts'
import type { Book } from './book.ts'
import { createCustomer, getCustomer, listCustomers } from './customers.ts'
import { paymentJson } from './json.ts'
import {
  deletePayment,
  getInstallment,
  pay,
  refundInstallment,
  refundPayment,
} from './payment-actions.ts'
import { createPayment, findPayment, listPayments } from './payments.ts'
import type { FakeControls } from './server.ts'
import { createTransfer, getTransfer, listTransfers } from './transfers.ts'

export interface Call {
  params: string[]
  query: URLSearchParams
  body: Record<string, unknown>
}

export type Route = [method: string, path: RegExp, handler: (call: Call) => unknown]

const id = (call: Call) => decodeURIComponent(call.params[0]!)

export function apiRoutes(book: Book): Route[] {
  return [
    ['POST', /^\/customers$/, (c) => createCustomer(book, c.body)],
    ['GET', /^\/customers$/, (c) => listCustomers(book, c.query)],
    ['GET', /^\/customers\/([^/]+)$/, (c) => getCustomer(book, id(c))],
    ['POST', /^\/payments$/, (c) => createPayment(book, c.body)],
    ['GET', /^\/payments$/, (c) => listPayments(book, c.query)],
    ['GET', /^\/payments\/([^/]+)$/, (c) => paymentJson(findPayment(book, id(c)), book.origin)],
    ['DELETE', /^\/payments\/([^/]+)$/, (c) => deletePayment(book, id(c))],
    ['POST', /^\/payments\/([^/]+)\/refund$/, (c) => refundPayment(book, id(c), c.body)],
    ['GET', /^\/payments\/([^/]+)\/pixQrCode$/, (c) => pixQrCode(book.livePayment(id(c)))],
    [
      'GET',
      /^\/payments\/([^/]+)\/identificationField$/,
      (c) => identificationField(book.livePayment(id(c))),
    ],
    ['GET', /^\/installments\/([^/]+)$/, (c) => getInstallment(book, id(c))],
    ['POST', /^\/installments\/([^/]+)\/refund$/, (c) => refundInstallment(book, id(c))],
    ['POST', /^\/transfers$/, (c) => createTransfer(book, c.body)],
    ['GET', /^\/transfers$/, (c) => listTransfers(book, c.query)],
    ['GET', /^\/transfers\/([^/]+)$/, (c) => getTransfer(book, id(c))],
    // The sandbox's own "confirm payment" action (docs: sandbox actions).
    ['POST', /^\/sandbox\/payment\/([^/]+)\/confirm$/, (c) => pay(book, id(c))],
  ]
}

const cents = (value: unknown) => (typeof value === 'number' ? toCents(value) : undefined)
const text = (value: unknown) => (typeof value === 'string' ? value : undefined)

export function controlRoutes(fake: FakeControls): Route[] {
  return [
    ['POST', /^\/payments\/([^/]+)\/pay$/, (c) => fake.pay(id(c), cents(c.body.value))],
    ['POST', /^\/payments\/([^/]+)\/overdue$/, (c) => fake.markOverdue(id(c))],
    [
      'POST',
      /^\/payments\/([^/]+)\/chargeback$/,
      (c) => fake.chargeback(id(c), text(c.body.reason)),
    ],
    ['POST', /^\/transfers\/([^/]+)\/done$/, (c) => fake.completeTransfer(id(c))],
    ['POST', /^\/transfers\/([^/]+)\/fail$/, (c) => fake.failTransfer(id(c), text(c.body.reason))],
    ['GET', /^\/balance$/, () => ({ value: fake.balanceCents() / 100 })],
    ['POST', /^\/balance$/, (c) => fake.setBalance(cents(c.body.value) ?? 0)],
    ['POST', /^\/wallets$/, () => ({ walletId: fake.addWallet() })],
    [
      'POST',
      /^\/lose-next-response$/,
      (c) => fake.loseNextResponse({ method: text(c.body.method), path: text(c.body.path) }),
    ],
    [
      'POST',
      /^\/fail-next-request$/,
      (c) =>
        fake.failNextRequest({
          method: text(c.body.method),
          path: text(c.body.path),
          status: typeof c.body.status === 'number' ? c.body.status : undefined,
        }),
    ],
    ['GET', /^\/requests$/, () => fake.requests],
    ['GET', /^\/webhooks$/, () => webhookState(fake)],
    ['POST', /^\/webhooks\/pause$/, () => fake.webhooks.pause()],
    ['POST', /^\/webhooks\/resume$/, () => fake.webhooks.resume()],
    [
      'POST',
      /^\/webhooks\/drop-next$/,
      (c) => fake.webhooks.dropNext(typeof c.body.count === 'number' ? c.body.count : 1),
    ],
    [
      'POST',
      /^\/webhooks\/([^/]+)\/redeliver$/,
      async (c) => ({
        statuses: await fake.webhooks.redeliver(
          id(c),
          typeof c.body.times === 'number' ? c.body.times : 2,
        ),
      }),
    ],
  ]
}

function webhookState(fake: FakeControls) {
  const { events, attempts, paused, pending } = fake.webhooks
  return { paused, pending, events, attempts }
}
