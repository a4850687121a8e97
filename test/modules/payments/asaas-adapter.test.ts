// The Asaas adapter against the fake Asaas as a real HTTP server (test/fakes/asaas.ts): every
// call of the port, the three kinds of answer, the notification reader and the payouts. The
// adapter keeps no books of its own (Asaas' are the truth), so no database is involved here;
// the journeys through the service run on both databases in test/flows/asaas-journey.test.ts.
import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { systemClock } from '../../../src/kit/clock.ts'
import type { PixKeyType } from '../../../src/kit/db-schema.ts'
import { parseDigitableLine } from '../../../src/modules/payments/boleto.ts'
import { parsePixCopyPaste } from '../../../src/modules/payments/brcode.ts'
import {
  type CallbackRequest,
  type CreateChargeInput,
  GatewayRefused,
  type PaymentGateway,
} from '../../../src/modules/payments/gateway.ts'
import {
  createAsaasGateway,
  createAsaasPayouts,
} from '../../../src/modules/payments/gateways/asaas/index.ts'
import type { PayoutProvider } from '../../../src/modules/payouts/provider.ts'
import { APPROVED_CARD, DECLINED_CARDS, type FakeAsaas, startFakeAsaas } from '../../fakes/asaas.ts'

const TOKEN = 'asaas-webhook-token-for-tests'
const CPF = '52998224725'

let fake: FakeAsaas
let gateway: PaymentGateway
let payouts: PayoutProvider

beforeAll(async () => {
  fake = await startFakeAsaas()
  const deps = {
    config: { asaas: { apiUrl: fake.url, apiKey: fake.apiKey, webhookToken: TOKEN } },
    clock: systemClock(),
  }
  gateway = createAsaasGateway(deps)
  payouts = createAsaasPayouts(deps)
})
afterAll(() => fake.close())

function charge(overrides: Partial<CreateChargeInput> = {}): CreateChargeInput {
  return {
    reference: randomUUID(),
    method: 'pix',
    amountCents: 10_000,
    description: 'Curso de fotografia',
    buyer: {
      name: 'Ana Souza',
      email: 'ana@example.com',
      document: CPF,
      phone: '+5511987654321',
      postalCode: '01310-100',
      addressNumber: '1000',
    },
    expiresAt: new Date(Date.now() + 30 * 60_000),
    remoteIp: '203.0.113.7',
    ...overrides,
  }
}

function card(number = APPROVED_CARD) {
  return { holderName: 'ANA SOUZA', number, expiryMonth: '7', expiryYear: '35', cvv: '123' }
}

/** The last POST to `path` the fake received. */
function lastCall(path: string) {
  return fake.requests.filter((r) => r.method === 'POST' && r.path === path).at(-1)!
}

const paymentsOf = (reference: string) =>
  fake.payments().filter((p) => p.externalReference === reference)

/** Every event the fake published about a payment or transfer, as Asaas would post it. */
function deliveries(objectId: string, token: string | null = TOKEN): CallbackRequest[] {
  return fake.webhooks.events
    .filter((e) => e.payment?.id === objectId || e.transfer?.id === objectId)
    .map((event) => ({
      rawBody: Buffer.from(JSON.stringify(event)),
      headers: token === null ? {} : { 'asaas-access-token': token },
      query: {},
    }))
}

describe('charges', () => {
  it('PIX: a pending charge with the BR Code and our own expiry, through our own User-Agent', async () => {
    const input = charge()
    const created = await gateway.createCharge(input)
    expect(created).toMatchObject({
      status: 'pending',
      amountCents: 10_000,
      boleto: null,
      card: null,
    })
    expect(created.pix!.expiresAt).toEqual(input.expiresAt)
    const parsed = parsePixCopyPaste(created.pix!.copyPaste)
    expect(parsed.crcValid).toBe(true)
    expect(parsed.fields['54']).toBe('100.00')
    const payment = fake.payment(created.gatewayChargeId)!
    expect(payment).toMatchObject({
      billingType: 'PIX',
      value: 100,
      externalReference: input.reference,
    })
    const calls = fake.requests.filter((r) => r.path.startsWith('/payments'))
    expect(calls.every((r) => r.accessToken === 'valid')).toBe(true)
    expect(calls.every((r) => /^Vitrine\/\d+\.\d+\.\d+$/.test(r.userAgent ?? ''))).toBe(true)
  })

  it('finds the buyer by CPF: one customer, created once, with Asaas notifications off', async () => {
    const document = '39053344705'
    await gateway.createCharge(charge({ buyer: { ...charge().buyer, document } }))
    await gateway.createCharge(charge({ buyer: { ...charge().buyer, document } }))
    const customers = fake.customers().filter((c) => c.cpfCnpj === document)
    expect(customers).toHaveLength(1)
    expect(customers[0]).toMatchObject({ notificationDisabled: true, mobilePhone: '11987654321' })
  })

  it('boleto: the digitable line, the barcode, the due date and the printable slip', async () => {
    const created = await gateway.createCharge(charge({ method: 'boleto' }))
    expect(created.status).toBe('pending')
    const boleto = created.boleto!
    expect(parseDigitableLine(boleto.digitableLine)).toEqual({
      valid: true,
      barcode: boleto.barcode,
    })
    expect(boleto.url).toBe(fake.payment(created.gatewayChargeId)!.bankSlipUrl)
    expect(boleto.dueDate).toMatch(/^\d{4}-\d{2}-\d{2}$/)
    expect(boleto.dueDate > new Date().toISOString().slice(0, 10)).toBe(true)
  })

  it('card approved: paid, last digits, a saved card a renewal charges again', async () => {
    const created = await gateway.createCharge(charge({ method: 'card', cardData: card() }))
    expect(created).toMatchObject({
      status: 'paid',
      card: { status: 'approved', last4: '4444', declineReason: null },
    })
    expect(created.savedCard).toEqual(expect.any(String))
    const sent = lastCall('/payments')
    expect(sent.body).toMatchObject({
      billingType: 'CREDIT_CARD',
      value: 100,
      remoteIp: '203.0.113.7',
      creditCard: { number: '************4444', expiryMonth: '07', expiryYear: '2035', ccv: '***' },
      creditCardHolderInfo: { cpfCnpj: CPF, postalCode: '01310100', addressNumber: '1000' },
    })
    const renewal = await gateway.createCharge(
      charge({ method: 'card', savedCard: created.savedCard! }),
    )
    expect(renewal).toMatchObject({ status: 'paid', card: { status: 'approved', last4: '4444' } })
  })

  it("card declined: failed with Asaas' own words, and nothing left at Asaas", async () => {
    const input = charge({ method: 'card', cardData: card(DECLINED_CARDS[0]) })
    const declined = await gateway.createCharge(input)
    expect(declined).toMatchObject({
      status: 'failed',
      card: { status: 'declined', last4: DECLINED_CARDS[0]!.slice(-4) },
      savedCard: null,
    })
    expect(declined.card!.declineReason).toMatch(/não autorizada/)
    expect(paymentsOf(input.reference)).toHaveLength(0)
    expect(await gateway.getCharge(input.reference)).toBeNull()
    expect(
      await gateway.cancelCharge({
        reference: input.reference,
        gatewayChargeId: declined.gatewayChargeId,
      }),
    ).toBe('failed')
  })

  it('installments: one payment per installment, one charge of the whole amount', async () => {
    const input = charge({ method: 'card', cardData: card(), amountCents: 10_000, installments: 3 })
    const created = await gateway.createCharge(input)
    expect(created).toMatchObject({ status: 'paid', amountCents: 10_000 })
    const payments = paymentsOf(input.reference)
    expect(payments.map((p) => p.value)).toEqual([33.33, 33.33, 33.34])
    expect(payments.find((p) => p.installmentNumber === 1)!.id).toBe(created.gatewayChargeId)
    const sent = lastCall('/payments')
    expect(sent.body).toMatchObject({ installmentCount: 3, totalValue: 100 })
    expect(sent.body).not.toHaveProperty('value')
    expect(await gateway.getCharge(input.reference)).toMatchObject({
      status: 'paid',
      amountCents: 10_000,
    })
  })

  it('a retried create after a lost answer finds the first charge: one charge, never two', async () => {
    const input = charge({ method: 'card', cardData: card() })
    fake.loseNextResponse({ method: 'POST', path: '/payments' })
    await expect(gateway.createCharge(input)).rejects.not.toBeInstanceOf(GatewayRefused)
    const again = await gateway.createCharge(input)
    expect(again.status).toBe('paid')
    expect(paymentsOf(input.reference)).toHaveLength(1)
    expect(paymentsOf(input.reference)[0]!.id).toBe(again.gatewayChargeId)
  })

  it('an unknown answer (a 5xx) throws a plain error: the caller looks it up later', async () => {
    fake.failNextRequest({ method: 'POST', path: '/payments', status: 503 })
    const input = charge()
    const error = await gateway.createCharge(input).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(Error)
    expect(error).not.toBeInstanceOf(GatewayRefused)
    expect(await gateway.getCharge(input.reference)).toBeNull()
  })

  it("a 400 is a refusal with Asaas' reason, blamed on the input", async () => {
    const error = await gateway
      .createCharge(charge({ buyer: { ...charge().buyer, document: '12345678900' } }))
      .catch((e: unknown) => e)
    expect(error).toBeInstanceOf(GatewayRefused)
    expect(error).toMatchObject({ blame: 'input', reason: 'O CPF/CNPJ informado é inválido.' })
  })

  it('a refused key is a refusal blamed on the gateway setup', async () => {
    const wrong = createAsaasGateway({
      config: { asaas: { apiUrl: fake.url, apiKey: '$aact_hmlg_wrong', webhookToken: TOKEN } },
      clock: systemClock(),
    })
    const error = await wrong.getCharge(randomUUID()).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(GatewayRefused)
    expect(error).toMatchObject({ blame: 'gateway', reason: 'A chave de API é inválida.' })
  })
})

describe('cancel and refunds', () => {
  it("cancel of a pending PIX removes it at Asaas (how Vitrine's own expiry closes it)", async () => {
    const input = charge()
    const created = await gateway.createCharge(input)
    const ref = { reference: input.reference, gatewayChargeId: created.gatewayChargeId }
    expect(await gateway.cancelCharge(ref)).toBe('canceled')
    expect(fake.payment(created.gatewayChargeId)!.deleted).toBe(true)
    // Asked again (an answer lost): still closed, nothing else happens.
    expect(await gateway.cancelCharge(ref)).toBe('canceled')
    expect(await gateway.getCharge(input.reference)).toBeNull()
  })

  it('cancel of a paid card refunds it in full', async () => {
    const input = charge({ method: 'card', cardData: card(), installments: 2 })
    const created = await gateway.createCharge(input)
    const ref = { reference: input.reference, gatewayChargeId: created.gatewayChargeId }
    expect(await gateway.cancelCharge(ref)).toBe('refunded')
    expect(paymentsOf(input.reference).map((p) => p.status)).toEqual(['REFUNDED', 'REFUNDED'])
    expect(await gateway.getCharge(input.reference)).toMatchObject({ status: 'refunded' })
  })

  it('full refund of a received PIX; asked again, it refunds nothing more', async () => {
    const input = charge()
    const created = await gateway.createCharge(input)
    fake.pay(created.gatewayChargeId)
    expect(await gateway.getCharge(input.reference)).toMatchObject({ status: 'paid', pix: null })
    const ask = {
      reference: randomUUID(),
      gatewayChargeId: created.gatewayChargeId,
      amountCents: 10_000,
    }
    expect(await gateway.refund(ask)).toEqual({
      status: 'completed',
      gatewayRefundId: null,
      failureReason: null,
    })
    expect(await gateway.refund(ask)).toMatchObject({ status: 'completed' })
    const payment = fake.payment(created.gatewayChargeId)!
    expect(payment.status).toBe('REFUNDED')
    expect(payment.refunds).toHaveLength(1)
    expect(await gateway.getCharge(input.reference)).toMatchObject({ status: 'refunded' })
  })

  it('partial refunds: each its own, the charge still paid; a lost answer is found again', async () => {
    const input = charge()
    const created = await gateway.createCharge(input)
    fake.pay(created.gatewayChargeId)
    const first = {
      reference: randomUUID(),
      gatewayChargeId: created.gatewayChargeId,
      amountCents: 3_000,
    }
    expect(await gateway.refund(first)).toMatchObject({ status: 'completed' })
    const second = {
      reference: randomUUID(),
      gatewayChargeId: created.gatewayChargeId,
      amountCents: 2_000,
    }
    expect(await gateway.getRefund(second)).toBeNull()
    fake.loseNextResponse({ method: 'POST', path: `/payments/${created.gatewayChargeId}/refund` })
    await expect(gateway.refund(second)).rejects.not.toBeInstanceOf(GatewayRefused)
    expect(await gateway.getRefund(second)).toMatchObject({ status: 'completed' })
    expect(await gateway.refund(second)).toMatchObject({ status: 'completed' })
    const payment = fake.payment(created.gatewayChargeId)!
    expect((payment.refunds as { value: number }[]).map((r) => r.value)).toEqual([30, 20])
    expect(await gateway.getCharge(input.reference)).toMatchObject({ status: 'paid' })
    // More than what is left: refused before anything is asked.
    const tooMuch = {
      reference: randomUUID(),
      gatewayChargeId: created.gatewayChargeId,
      amountCents: 5_001,
    }
    await expect(gateway.refund(tooMuch)).rejects.toBeInstanceOf(GatewayRefused)
  })

  it('a partial refund of installments starts from the last one', async () => {
    const input = charge({ method: 'card', cardData: card(), installments: 3 })
    const created = await gateway.createCharge(input)
    const ask = {
      reference: randomUUID(),
      gatewayChargeId: created.gatewayChargeId,
      amountCents: 5_000,
    }
    expect(await gateway.refund(ask)).toMatchObject({ status: 'completed' })
    const payments = paymentsOf(input.reference)
    expect(payments.map((p) => p.status)).toEqual(['CONFIRMED', 'CONFIRMED', 'REFUNDED'])
    expect(payments.map((p) => (p.refunds as unknown[] | null)?.length ?? 0)).toEqual([0, 1, 1])
    expect(await gateway.getCharge(input.reference)).toMatchObject({ status: 'paid' })
  })

  it('Asaas refusing a refund (a boleto) is a refusal with its reason', async () => {
    const created = await gateway.createCharge(charge({ method: 'boleto' }))
    fake.pay(created.gatewayChargeId)
    const error = await gateway
      .refund({
        reference: randomUUID(),
        gatewayChargeId: created.gatewayChargeId,
        amountCents: 100,
      })
      .catch((e: unknown) => e)
    expect(error).toMatchObject({ reason: 'Esta cobrança não pode ser estornada.', blame: 'input' })
  })
})

describe('notifications', () => {
  it('a missing or wrong token is not Asaas: null', async () => {
    const created = await gateway.createCharge(charge())
    const [event] = deliveries(created.gatewayChargeId, 'not-the-token')
    expect(await gateway.readCallback(event!)).toBeNull()
    const [bare] = deliveries(created.gatewayChargeId, null)
    expect(await gateway.readCallback(bare!)).toBeNull()
  })

  it("the payment is read back: its state, not the event's word, says what happened", async () => {
    const created = await gateway.createCharge(charge())
    const [createdEvent] = deliveries(created.gatewayChargeId)
    expect(await gateway.readCallback(createdEvent!)).toMatchObject({
      kind: 'charge',
      callback: {
        gatewayChargeId: created.gatewayChargeId,
        action: 'ignored',
        amountCents: 10_000,
      },
    })
    fake.pay(created.gatewayChargeId)
    // The old PAYMENT_CREATED event, delivered late, now reads as paid.
    const late = await gateway.readCallback(createdEvent!)
    expect(late).toMatchObject({ kind: 'charge', callback: { action: 'paid' } })
    const received = deliveries(created.gatewayChargeId).at(-1)!
    const once = await gateway.readCallback(received)
    const twice = await gateway.readCallback(received)
    expect(once).toMatchObject({ kind: 'charge', callback: { action: 'paid' } })
    expect(once).toMatchObject({
      callback: { eventId: JSON.parse(received.rawBody.toString()).id },
    })
    expect(twice).toEqual(once)
  })

  it('removed, refunded and charged-back charges read as expired, refunded and chargeback', async () => {
    const pending = await gateway.createCharge(charge())
    fake.markOverdue(pending.gatewayChargeId)
    expect(await gateway.readCallback(deliveries(pending.gatewayChargeId).at(-1)!)).toMatchObject({
      callback: { action: 'ignored' },
    })
    await gateway.cancelCharge({
      reference: fake.payment(pending.gatewayChargeId)!.externalReference as string,
      gatewayChargeId: pending.gatewayChargeId,
    })
    expect(await gateway.readCallback(deliveries(pending.gatewayChargeId).at(-1)!)).toMatchObject({
      callback: { action: 'expired' },
    })
    const paidCard = await gateway.createCharge(charge({ method: 'card', cardData: card() }))
    fake.chargeback(paidCard.gatewayChargeId)
    expect(await gateway.readCallback(deliveries(paidCard.gatewayChargeId).at(-1)!)).toMatchObject({
      callback: { action: 'chargeback' },
    })
  })

  it('events of charges that are not ours, and other events, are ignored', async () => {
    const foreign = {
      rawBody: Buffer.from(
        JSON.stringify({ id: 'evt_x', event: 'PAYMENT_RECEIVED', payment: { id: 'pay_nope' } }),
      ),
      headers: { 'asaas-access-token': TOKEN },
      query: {},
    }
    expect(await gateway.readCallback(foreign)).toMatchObject({ kind: 'ignored', eventId: 'evt_x' })
    const other = {
      ...foreign,
      rawBody: Buffer.from(JSON.stringify({ id: 'evt_y', event: 'ACCOUNT_STATUS_UPDATED' })),
    }
    expect(await gateway.readCallback(other)).toMatchObject({ kind: 'ignored', eventId: 'evt_y' })
  })

  it('a read-back whose answer is unknown throws (the route answers 503, Asaas delivers again)', async () => {
    const created = await gateway.createCharge(charge())
    fake.failNextRequest({
      method: 'GET',
      path: `/payments/${created.gatewayChargeId}`,
      status: 500,
    })
    await expect(gateway.readCallback(deliveries(created.gatewayChargeId)[0]!)).rejects.toThrow()
  })
})

describe('payouts', () => {
  const transfer = (overrides: { pixKey?: string; pixKeyType?: PixKeyType } = {}) => ({
    reference: randomUUID(),
    amountCents: 25_000,
    pixKey: '52998224725',
    pixKeyType: 'cpf' as PixKeyType,
    description: 'Saque Vitrine',
    ...overrides,
  })
  const transferOf = (reference: string) =>
    fake.transfers().filter((t) => t.externalReference === reference)

  it('a transfer is pending until the bank is done; the TRANSFER_DONE event reads it back', async () => {
    const input = transfer()
    const result = await payouts.transferPix(input)
    expect(result).toMatchObject({ status: 'pending', failureReason: null })
    const id = result.gatewayTransferId!
    fake.completeTransfer(id)
    const done = deliveries(id).at(-1)!
    expect(JSON.parse(done.rawBody.toString()).event).toBe('TRANSFER_DONE')
    expect(await payouts.readCallback!(done)).toEqual({
      kind: 'transfer',
      eventId: JSON.parse(done.rawBody.toString()).id,
      reference: input.reference,
      result: { status: 'completed', gatewayTransferId: id, failureReason: null },
    })
    expect(await payouts.getTransfer(input.reference)).toMatchObject({ status: 'completed' })
    // The gateway reads the same notifications (one webhook for both).
    expect(await gateway.readCallback(done)).toMatchObject({
      kind: 'transfer',
      reference: input.reference,
    })
  })

  it("the payout provider's reader leaves payment events alone (another gateway takes them)", async () => {
    const created = await gateway.createCharge(charge())
    fake.pay(created.gatewayChargeId)
    const received = deliveries(created.gatewayChargeId).at(-1)!
    expect(await payouts.readCallback!(received)).toMatchObject({ kind: 'ignored' })
    expect(await gateway.readCallback(received)).toMatchObject({ kind: 'charge' })
  })

  it("a failed transfer reads failed with the bank's reason", async () => {
    const input = transfer()
    const { gatewayTransferId } = await payouts.transferPix(input)
    fake.failTransfer(gatewayTransferId!, 'Chave Pix não encontrada.')
    expect(await payouts.readCallback!(deliveries(gatewayTransferId!).at(-1)!)).toMatchObject({
      kind: 'transfer',
      result: { status: 'failed', failureReason: 'Chave Pix não encontrada.' },
    })
    expect(await payouts.getTransfer(input.reference)).toMatchObject({ status: 'failed' })
  })

  it('a retried payout after a lost answer pays once', async () => {
    const input = transfer()
    fake.loseNextResponse({ method: 'POST', path: '/transfers' })
    await expect(payouts.transferPix(input)).rejects.not.toBeInstanceOf(GatewayRefused)
    expect(await payouts.getTransfer(input.reference)).toMatchObject({ status: 'pending' })
    expect(await payouts.transferPix(input)).toMatchObject({ status: 'pending' })
    expect(transferOf(input.reference)).toHaveLength(1)
    expect(await payouts.getTransfer(randomUUID())).toBeNull()
  })

  it.each([
    ['cpf', '529.982.247-25', '52998224725', 'CPF'],
    ['cnpj', '11222333000181', '11222333000181', 'CNPJ'],
    ['email', 'ana@example.com', 'ana@example.com', 'EMAIL'],
    ['phone', '+5511987654321', '11987654321', 'PHONE'],
    [
      'random',
      '7d9f0335-8dcc-4054-9bf9-0dbd61d36906',
      '7d9f0335-8dcc-4054-9bf9-0dbd61d36906',
      'EVP',
    ],
  ] as const)('a %s key goes to Asaas as %s → %s (%s)', async (type, key, sentKey, sentType) => {
    const input = transfer({ pixKeyType: type, pixKey: key })
    await payouts.transferPix(input)
    expect(transferOf(input.reference)[0]).toMatchObject({ value: 250 })
    const sent = lastCall('/transfers')
    expect(sent.body).toMatchObject({
      pixAddressKey: sentKey,
      pixAddressKeyType: sentType,
      externalReference: input.reference,
      value: 250,
    })
  })

  it('Asaas refusing a transfer (more than the balance) is a refusal with its reason', async () => {
    const before = fake.balanceCents()
    fake.setBalance(100)
    const refused = await payouts.transferPix(transfer()).catch((e: unknown) => e)
    fake.setBalance(before)
    expect(refused).toMatchObject({ reason: 'Saldo insuficiente para realizar a transferência.' })
    expect(refused).toBeInstanceOf(GatewayRefused)
  })
})
