// The Mercado Pago adapter against the fake as a real HTTP server (test/fakes/mercadopago.ts),
// and its notifications received by a real HTTP server that hands them to readCallback.
// No database: Mercado Pago's books are the adapter's only truth.
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { systemClock } from '../../../src/kit/clock.ts'
import { hmacHex } from '../../../src/kit/crypto.ts'
import { uuidv7 } from '../../../src/kit/ids.ts'
import { parseDigitableLine } from '../../../src/modules/payments/boleto.ts'
import { parsePixCopyPaste } from '../../../src/modules/payments/brcode.ts'
import {
  type CallbackReading,
  type CreateChargeInput,
  GatewayRefused,
  type PaymentGateway,
} from '../../../src/modules/payments/gateway.ts'
import { createMercadoPagoGateway } from '../../../src/modules/payments/gateways/mercadopago/index.ts'
import { manifestOf } from '../../../src/modules/payments/gateways/mercadopago/signature.ts'
import { type FakeMercadoPago, startFakeMercadoPago } from '../../fakes/mercadopago.ts'

const CPF = '12345678909'
const MASTER = '5031433215406351'
const MINUTE = 60_000

let mp: FakeMercadoPago
let gateway: PaymentGateway
let receiver: Awaited<ReturnType<typeof startCallbackReceiver>>

/** Receives Mercado Pago's notifications and answers as the callback route does. */
async function startCallbackReceiver(read: () => PaymentGateway) {
  const readings: Array<{ paymentId: string | undefined; reading: CallbackReading | null }> = []
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = []
    for await (const chunk of req) chunks.push(chunk as Buffer)
    const url = new URL(req.url ?? '/', 'http://receiver')
    const query = Object.fromEntries(url.searchParams)
    try {
      const reading = await read().readCallback({
        rawBody: Buffer.concat(chunks),
        headers: req.headers,
        query,
      })
      readings.push({ paymentId: query['data.id'], reading })
      res.writeHead(reading ? 200 : 401).end()
    } catch {
      res.writeHead(503).end()
    }
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    readings,
    /** What the readings of one payment's authentic notifications said, in order. */
    actionsOf: (paymentId: string) =>
      readings
        .filter((r) => r.paymentId === paymentId && r.reading?.kind === 'charge')
        .map((r) => (r.reading?.kind === 'charge' ? r.reading.callback.action : null)),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

beforeAll(async () => {
  mp = await startFakeMercadoPago({ retryDelaysMs: [20, 20] })
  receiver = await startCallbackReceiver(() => gateway)
  gateway = createMercadoPagoGateway({
    config: {
      baseUrl: receiver.url,
      mercadoPago: {
        apiUrl: mp.url,
        accessToken: mp.accessToken,
        publicKey: mp.publicKey,
        webhookSecret: mp.webhookSecret,
      },
    },
    clock: systemClock(),
    scriptUrl: `${mp.url}/js/v2`,
  })
})
afterAll(async () => {
  await mp.close()
  await receiver.close()
})

function charge(extra: Partial<CreateChargeInput> = {}): CreateChargeInput {
  return {
    reference: uuidv7(),
    method: 'pix',
    amountCents: 4990,
    description: 'Curso de fotografia',
    buyer: {
      name: 'Ana Maria Souza',
      email: 'ana@example.com',
      document: CPF,
      phone: '11987654321',
    },
    expiresAt: new Date(Date.now() + 30 * MINUTE),
    ...extra,
  }
}

const ADDRESS = {
  postalCode: '06233-200',
  street: 'Av. das Nações Unidas',
  number: '3003',
  neighborhood: 'Bonfim',
  city: 'Osasco',
  state: 'SP',
}

/** What MercadoPago.js hands the page, joined as the checkout sends it (card-token.ts). */
async function browserToken(holder = 'APRO', issuer = true) {
  const res = await fetch(`${mp.url}/v1/card_tokens?public_key=${mp.publicKey}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      card_number: MASTER,
      security_code: '123',
      expiration_month: 11,
      expiration_year: new Date().getUTCFullYear() + 3,
      cardholder: { name: holder, identification: { type: 'CPF', number: CPF } },
    }),
  })
  expect(res.status).toBe(201)
  const { id } = (await res.json()) as { id: string }
  return issuer ? `${id}:master:24` : `${id}:master`
}

const requestsTo = (path: string) => mp.requests.filter((r) => r.path.startsWith(path))

async function refusal(work: Promise<unknown>): Promise<GatewayRefused> {
  const error = await work.then(
    () => null,
    (e: unknown) => e,
  )
  expect(error).toBeInstanceOf(GatewayRefused)
  return error as GatewayRefused
}

describe('PIX', () => {
  it('creates a PIX whose copy-and-paste code is the payment, keyed by our order id', async () => {
    const input = charge()
    const created = await gateway.createCharge(input)
    expect(created).toMatchObject({
      status: 'pending',
      amountCents: 4990,
      boleto: null,
      card: null,
    })
    const code = parsePixCopyPaste(created.pix!.copyPaste)
    expect([code.crcValid, code.fields['54']]).toEqual([true, '49.90'])
    // The buyer sees Vitrine's own expiry (30 minutes)…
    expect(created.pix!.expiresAt).toEqual(input.expiresAt)

    const sent = requestsTo('/v1/payments').at(-1)!
    expect(sent.headers['x-idempotency-key']).toBe(input.reference)
    expect(sent.headers.authorization).toBe(`Bearer ${mp.accessToken}`)
    const body = JSON.parse(sent.body)
    expect(body).toMatchObject({
      payment_method_id: 'pix',
      transaction_amount: 49.9,
      external_reference: input.reference,
      notification_url: `${receiver.url}/api/payments/callback/mercadopago?source_news=webhooks`,
      payer: { email: 'ana@example.com', identification: { type: 'CPF', number: CPF } },
    })
    // …Mercado Pago, which refuses less than 30 minutes, the order's creation plus 32.
    const createdAt = Number.parseInt(input.reference.replace(/-/g, '').slice(0, 12), 16)
    expect(new Date(body.date_of_expiration).getTime()).toBe(createdAt + 32 * MINUTE)

    expect(await gateway.getCharge(input.reference)).toMatchObject({
      gatewayChargeId: created.gatewayChargeId,
      status: 'pending',
    })
  })

  it('sends a longer expiry as it is, the same on every retry', async () => {
    const input = charge({ expiresAt: new Date(Date.now() + 3 * 60 * MINUTE) })
    await gateway.createCharge(input)
    await gateway.createCharge(input)
    const sent = requestsTo('/v1/payments').filter(
      (r) => r.headers['x-idempotency-key'] === input.reference,
    )
    expect(sent.map((r) => new Date(JSON.parse(r.body).date_of_expiration).getTime())).toEqual([
      input.expiresAt.getTime(),
      input.expiresAt.getTime(),
    ])
    expect(sent.map((r) => r.status)).toEqual([201, 201])
  })

  it('is paid: the notification is read back as paid, and so is the lookup', async () => {
    const input = charge({ amountCents: 1500 })
    const { gatewayChargeId: id } = await gateway.createCharge(input)
    await mp.settled()
    mp.approve(id)
    await mp.settled()
    expect(receiver.actionsOf(id)).toEqual(['ignored', 'paid'])
    const paid = receiver.readings.filter((r) => r.paymentId === id).at(-1)!.reading
    expect(paid).toMatchObject({
      kind: 'charge',
      callback: { gatewayChargeId: id, action: 'paid', amountCents: 1500 },
    })
    expect((await gateway.getCharge(input.reference))!.status).toBe('paid')
  })

  it('runs out unpaid: expired, read back', async () => {
    const { gatewayChargeId: id } = await gateway.createCharge(charge())
    mp.expire(id)
    await mp.settled()
    expect(receiver.actionsOf(id).at(-1)).toBe('expired')
  })

  it('answers null for a reference Mercado Pago has no payment for', async () => {
    expect(await gateway.getCharge('order-never-made')).toBeNull()
  })
})

describe('boleto', () => {
  it('creates a boleto with its line, barcode, due date and printable page', async () => {
    const input = charge({
      method: 'boleto',
      amountCents: 14790,
      buyer: { ...charge().buyer, address: ADDRESS },
    })
    const created = await gateway.createCharge(input)
    expect(created.status).toBe('pending')
    const boleto = created.boleto!
    expect(parseDigitableLine(boleto.digitableLine)).toEqual({
      valid: true,
      barcode: boleto.barcode,
    })
    expect(boleto.url).toMatch(new RegExp(`^${mp.url}/`))
    expect(boleto.dueDate).toMatch(/^\d{4}-\d{2}-\d{2}$/)
    const body = JSON.parse(requestsTo('/v1/payments').at(-1)!.body)
    expect(body).toMatchObject({
      payment_method_id: 'bolbradesco',
      payer: {
        first_name: 'Ana',
        last_name: 'Maria Souza',
        identification: { type: 'CPF', number: CPF },
        address: {
          zip_code: '06233200',
          street_name: 'Av. das Nações Unidas',
          street_number: '3003',
          neighborhood: 'Bonfim',
          city: 'Osasco',
          federal_unit: 'SP',
        },
      },
    })
  })

  it('refuses a boleto without the address Mercado Pago requires, asking nothing of it', async () => {
    const before = mp.requests.length
    const error = await refusal(gateway.createCharge(charge({ method: 'boleto' })))
    expect(error.blame).toBe('input')
    expect(error.reason).toMatch(/endereço completo/)
    expect(mp.requests.length).toBe(before)
  })
})

describe('card', () => {
  it('is approved with installments, the issuer and the method the page sent', async () => {
    const input = charge({
      method: 'card',
      amountCents: 30000,
      installments: 3,
      cardToken: await browserToken('APRO'),
    })
    const created = await gateway.createCharge(input)
    expect(created).toMatchObject({
      status: 'paid',
      card: { status: 'approved', last4: '6351', declineReason: null },
      savedCard: null,
    })
    const payment = mp.payment(created.gatewayChargeId)
    expect(payment).toMatchObject({ installments: 3, issuer_id: '24', payment_method_id: 'master' })
  })

  it('is declined with the reason in words a buyer can act on', async () => {
    const created = await gateway.createCharge(
      charge({ method: 'card', cardToken: await browserToken('FUND', false) }),
    )
    expect(created).toMatchObject({
      status: 'failed',
      card: {
        status: 'declined',
        last4: '6351',
        declineReason: 'Saldo ou limite insuficiente no cartão.',
      },
    })
  })

  it('stays pending under review, then the notification settles it either way', async () => {
    const approved = await gateway.createCharge(
      charge({ method: 'card', cardToken: await browserToken('CONT') }),
    )
    const declined = await gateway.createCharge(
      charge({ method: 'card', cardToken: await browserToken('CONT') }),
    )
    expect(approved).toMatchObject({ status: 'pending', card: null })
    await mp.settled()
    mp.approve(approved.gatewayChargeId)
    mp.reject(declined.gatewayChargeId, 'cc_rejected_high_risk')
    await mp.settled()
    expect(receiver.actionsOf(approved.gatewayChargeId)).toEqual(['ignored', 'paid'])
    expect(receiver.actionsOf(declined.gatewayChargeId)).toEqual(['ignored', 'failed'])
  })

  it('refuses installments the card does not take, and a token the page did not complete', async () => {
    const tooMany = await refusal(
      gateway.createCharge(
        charge({ method: 'card', installments: 13, cardToken: await browserToken() }),
      ),
    )
    expect([tooMany.blame, tooMany.reason]).toEqual([
      'input',
      'O Mercado Pago recusou a operação: número de parcelas não aceito para este cartão',
    ])
    const bare = await refusal(gateway.createCharge(charge({ method: 'card', cardToken: 'abc' })))
    expect(bare.blame).toBe('input')
  })
})

describe('refunds', () => {
  async function paidCard(amountCents = 10000) {
    const input = charge({ method: 'card', amountCents, cardToken: await browserToken() })
    return { input, created: await gateway.createCharge(input) }
  }

  it('refunds in part then in full; a retried refund is the same refund', async () => {
    const { created } = await paidCard()
    const id = created.gatewayChargeId
    const first = { reference: `refund-a-${id}`, gatewayChargeId: id, amountCents: 3000 }
    const done = await gateway.refund(first)
    expect(done).toMatchObject({ status: 'completed', failureReason: null })
    expect(await gateway.refund(first)).toEqual(done)
    expect(mp.payment(id).refunds).toHaveLength(1)
    const sent = requestsTo(`/v1/payments/${id}/refunds`).filter((r) => r.method === 'POST')
    expect(sent.map((r) => r.headers['x-idempotency-key'])).toEqual([
      first.reference,
      first.reference,
    ])
    expect(JSON.parse(sent[0]!.body)).toEqual({ amount: 30 })
    // One refund of the payment: the lookup finds it.
    expect(await gateway.getRefund(first)).toEqual(done)

    const rest = await gateway.refund({
      reference: `refund-b-${id}`,
      gatewayChargeId: id,
      amountCents: 7000,
    })
    expect(rest.status).toBe('completed')
    expect(mp.payment(id)).toMatchObject({ status: 'refunded', transaction_amount_refunded: 100 })
    expect((await gateway.getCharge(mp.payment(id).external_reference!))!.status).toBe('refunded')
  })

  it('fails a refund Mercado Pago refuses, with its reason; finds none when none was made', async () => {
    const { created } = await paidCard(5000)
    const id = created.gatewayChargeId
    expect(await gateway.getRefund({ reference: 'refund-none', gatewayChargeId: id })).toBeNull()
    const tooMuch = await gateway.refund({
      reference: `refund-x-${id}`,
      gatewayChargeId: id,
      amountCents: 5001,
    })
    expect(tooMuch).toEqual({
      status: 'failed',
      gatewayRefundId: null,
      failureReason: 'O Mercado Pago recusou a operação: o valor excede o que resta a estornar',
    })
  })

  it('a refund whose answer was lost is found by the lookup, and its retry is the same refund', async () => {
    const { created } = await paidCard(4000)
    const id = created.gatewayChargeId
    const asked = { reference: `refund-lost-${id}`, gatewayChargeId: id, amountCents: 4000 }
    mp.loseNextAnswer({ method: 'POST', path: `/v1/payments/${id}/refunds` })
    await expect(gateway.refund(asked)).rejects.not.toBeInstanceOf(GatewayRefused)
    const found = await gateway.getRefund(asked)
    expect(found).toMatchObject({ status: 'completed' })
    expect(await gateway.refund(asked)).toEqual(found)
    expect(mp.payment(id).refunds).toHaveLength(1)
  })

  it('does not guess which of several refunds is ours', async () => {
    const { created } = await paidCard()
    const id = created.gatewayChargeId
    await gateway.refund({ reference: `r1-${id}`, gatewayChargeId: id, amountCents: 1000 })
    await gateway.refund({ reference: `r2-${id}`, gatewayChargeId: id, amountCents: 1000 })
    await expect(gateway.getRefund({ reference: `r1-${id}`, gatewayChargeId: id })).rejects.toThrow(
      /2 refunds/,
    )
  })
})

describe('cancel', () => {
  it('cancels a pending PIX, refunds an approved card, and answers where a closed one ended', async () => {
    const pix = await gateway.createCharge(charge())
    const ref = (c: { gatewayChargeId: string }, reference = 'order-x') => ({
      reference,
      gatewayChargeId: c.gatewayChargeId,
    })
    expect(await gateway.cancelCharge(ref(pix))).toBe('canceled')
    expect(mp.payment(pix.gatewayChargeId)).toMatchObject({
      status: 'cancelled',
      status_detail: 'by_collector',
    })

    const card = await gateway.createCharge(
      charge({ method: 'card', cardToken: await browserToken() }),
    )
    expect(await gateway.cancelCharge(ref(card))).toBe('refunded')
    expect(mp.payment(card.gatewayChargeId).status).toBe('refunded')
    // Asked again (a retry): it stays where it ended, nothing more is refunded.
    expect(await gateway.cancelCharge(ref(card))).toBe('refunded')
    expect(mp.payment(card.gatewayChargeId).refunds).toHaveLength(1)

    const expired = await gateway.createCharge(charge())
    mp.expire(expired.gatewayChargeId)
    expect(await gateway.cancelCharge(ref(expired))).toBe('expired')
  })
})

describe('answers', () => {
  it('a create whose answer was lost, asked again, makes one payment', async () => {
    const input = charge()
    mp.loseNextAnswer({ method: 'POST', path: '/v1/payments' })
    await expect(gateway.createCharge(input)).rejects.not.toBeInstanceOf(GatewayRefused)
    const again = await gateway.createCharge(input)
    const made = mp.payments().filter((p) => p.external_reference === input.reference)
    expect(made.map((p) => String(p.id))).toEqual([again.gatewayChargeId])
  })

  it('a 400 is a refusal of our input, with Mercado Pago reason', async () => {
    const error = await refusal(
      gateway.createCharge(charge({ buyer: { ...charge().buyer, email: 'not-an-email' } })),
    )
    expect([error.blame, error.reason]).toEqual([
      'input',
      'O Mercado Pago recusou a operação: e-mail inválido',
    ])
  })

  it('a refused access token is the gateway setup, not the buyer', async () => {
    const wrong = createMercadoPagoGateway({
      config: {
        baseUrl: receiver.url,
        mercadoPago: {
          apiUrl: mp.url,
          accessToken: 'APP_USR-wrong',
          publicKey: 'x',
          webhookSecret: 'x',
        },
      },
      clock: systemClock(),
    })
    const error = await refusal(wrong.createCharge(charge()))
    expect(error.blame).toBe('gateway')
    expect(wrong.cardEntry).toEqual({
      kind: 'browser-token',
      scriptUrl: 'https://sdk.mercadopago.com/js/v2',
      publicKey: 'x',
    })
  })

  it('a 5xx is an unknown answer: thrown, not a refusal, and nothing was made', async () => {
    const input = charge()
    mp.failNext(500, { method: 'POST', path: '/v1/payments' })
    const error = await gateway.createCharge(input).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(Error)
    expect(error).not.toBeInstanceOf(GatewayRefused)
    expect(await gateway.getCharge(input.reference)).toBeNull()
  })

  it('offers MercadoPago.js from the configured place with the public key', () => {
    expect(gateway.cardEntry).toEqual({
      kind: 'browser-token',
      scriptUrl: `${mp.url}/js/v2`,
      publicKey: mp.publicKey,
    })
  })
})

describe('notifications', () => {
  it('refuses forged, unsigned, tampered and stale ones', async () => {
    const { gatewayChargeId: id } = await gateway.createCharge(charge())
    await mp.settled()
    const before = receiver.readings.length
    for (const how of ['wrong-secret', 'unsigned', 'tampered-id', 'stale'] as const)
      mp.forge(id, how)
    await mp.settled()
    expect(receiver.readings.slice(before).map((r) => r.reading)).toEqual([null, null, null, null])
    const forged = mp.deliveries.filter((d) => d.kind === 'forged' && String(d.paymentId) === id)
    expect(forged.map((d) => d.status)).toEqual([401, 401, 401, 401])
  })

  it('a repeated notification carries the same event id', async () => {
    const { gatewayChargeId: id } = await gateway.createCharge(charge())
    await mp.settled()
    mp.setDelivery('twice')
    mp.approve(id)
    await mp.settled()
    mp.setDelivery('once')
    mp.resend(id)
    await mp.settled()
    const paid = receiver.readings
      .filter((r) => r.paymentId === id && r.reading?.kind === 'charge')
      .map((r) => (r.reading?.kind === 'charge' ? r.reading.callback : null))
      .filter((c) => c?.action === 'paid')
    expect(paid).toHaveLength(3)
    expect(new Set(paid.map((c) => c!.eventId)).size).toBe(1)
  })

  it('ignores a signed notification for a payment Mercado Pago does not have (a simulation)', async () => {
    const ts = String(Math.floor(Date.now() / 1000))
    const v1 = hmacHex(mp.webhookSecret, manifestOf({ dataId: '123456', xRequestId: 'sim-1' }, ts))
    const reading = await gateway.readCallback({
      rawBody: Buffer.from(JSON.stringify({ id: 9, type: 'payment', data: { id: '123456' } })),
      headers: { 'x-request-id': 'sim-1', 'x-signature': `ts=${ts},v1=${v1}` },
      query: { 'data.id': '123456', type: 'payment' },
    })
    expect(reading).toEqual({
      kind: 'ignored',
      eventId: '9',
      why: 'payment 123456 not found at Mercado Pago',
    })
  })

  it('throws when the read-back answer is unknown, so the route answers 503 and MP retries', async () => {
    const { gatewayChargeId: id } = await gateway.createCharge(charge())
    await mp.settled()
    mp.failNext(502, { method: 'GET', path: `/v1/payments/${id}` })
    mp.approve(id)
    await mp.settled()
    const updates = mp.deliveries.filter(
      (d) => String(d.paymentId) === id && d.action === 'payment.updated',
    )
    expect(updates.map((d) => d.status)).toEqual([503, 200])
    expect(receiver.actionsOf(id).at(-1)).toBe('paid')
  })
})
