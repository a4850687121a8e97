// The fake Asaas over real HTTP: each documented rejection, each happy path, the controls and
// the webhook delivery (docs/gateways/asaas.md). No database.
import { request } from 'node:http'
import jsQRModule from 'jsqr'
import { PNG } from 'pngjs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { parseDigitableLine } from '../../src/modules/payments/boleto.ts'
import { parsePixCopyPaste } from '../../src/modules/payments/brcode.ts'
import { type Answer, startReceiver } from '../setup/receiver.ts'
import { APPROVED_CARD, DECLINED_CARDS, type FakeAsaas, pixTxid, startFakeAsaas } from './asaas.ts'

const jsQR = jsQRModule as unknown as typeof jsQRModule.default
const TOKEN = 'webhook-token-123'
const CPF = '52998224725'

type Receiver = Awaited<ReturnType<typeof startReceiver>>
let fake: FakeAsaas
let receiver: Receiver

beforeAll(async () => {
  receiver = await startReceiver()
  fake = await startFakeAsaas({ webhook: { url: receiver.url, authToken: TOKEN, retryDelayMs: 5 } })
})
afterAll(async () => {
  await fake.close()
  await receiver.close()
})

function headers(extra: Record<string, string | undefined> = {}) {
  const all: Record<string, string | undefined> = {
    access_token: fake.apiKey,
    'user-agent': 'vitrine-tests',
    'content-type': 'application/json',
    ...extra,
  }
  return Object.fromEntries(Object.entries(all).filter(([, v]) => v !== undefined)) as Record<
    string,
    string
  >
}

async function api(
  method: string,
  path: string,
  body?: unknown,
  extra?: Record<string, string | undefined>,
) {
  const res = await fetch(`${fake.url}${path}`, {
    method,
    headers: headers(extra),
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  return { status: res.status, body: (await res.json()) as any }
}

const codes = (body: any) => body.errors.map((e: { code: string }) => e.code)

/** A Brasília day `days` from now: always valid as a due date. */
function day(days: number) {
  return new Date(Date.now() - 3 * 3_600_000 + days * 86_400_000).toISOString().slice(0, 10)
}

async function customer(cpfCnpj = CPF) {
  const res = await api('POST', '/customers', { name: 'Maria Souza', cpfCnpj, email: 'm@x.com' })
  expect(res.status).toBe(200)
  return res.body.id as string
}

async function payment(fields: Record<string, unknown>) {
  const res = await api('POST', '/payments', {
    customer: await customer(),
    dueDate: day(3),
    ...fields,
  })
  return res
}

const holder = {
  name: 'Maria Souza',
  email: 'm@x.com',
  cpfCnpj: CPF,
  postalCode: '89223-005',
  addressNumber: '277',
  phone: '4738010919',
}
const card = (number = APPROVED_CARD) => ({
  holderName: 'MARIA SOUZA',
  number,
  expiryMonth: '12',
  expiryYear: String(new Date().getFullYear() + 2),
  ccv: '318',
})

/** Webhooks the receiver got for one payment or transfer, in arrival order. */
async function delivered(resourceId: string) {
  await fake.webhooks.whenIdle()
  return receiver.received
    .map((r) => r.body)
    .filter((b) => (b.payment ?? b.transfer)?.id === resourceId)
    .map((b) => b.event)
}

describe('authentication, headers and body', () => {
  it('answers 401 with the error body without a valid access_token', async () => {
    const missing = await api('GET', '/customers', undefined, { access_token: undefined })
    expect(missing.status).toBe(401)
    expect(codes(missing.body)).toEqual(['access_token_not_found'])
    const wrong = await api('GET', '/customers', undefined, { access_token: '$aact_prod_x' })
    expect(wrong.status).toBe(401)
    expect(codes(wrong.body)).toEqual(['invalid_access_token'])
  })

  it('requires a User-Agent, JSON bodies and no body on GET', async () => {
    const noAgent = await new Promise<number>((resolve) => {
      const req = request(`${fake.url}/customers`, { headers: { access_token: fake.apiKey } })
      req.on('response', (res) => resolve(res.statusCode!)).end()
    })
    expect(noAgent).toBe(400)
    const getWithBody = await new Promise<number>((resolve) => {
      const req = request(`${fake.url}/customers`, {
        headers: { ...headers(), 'content-length': '2' },
      })
      req.on('response', (res) => resolve(res.statusCode!)).end('{}')
    })
    expect(getWithBody).toBe(403)
    const text = await fetch(`${fake.url}/customers`, {
      method: 'POST',
      headers: headers({ 'content-type': 'text/plain' }),
      body: JSON.stringify({ name: 'A', cpfCnpj: CPF }),
    })
    expect(text.status).toBe(400)
    const broken = await fetch(`${fake.url}/customers`, {
      method: 'POST',
      headers: headers(),
      body: '{"name":',
    })
    expect(codes(await broken.json())).toEqual(['invalid_object'])
    expect((await api('GET', '/nothing-here')).status).toBe(404)
  })

  it('records each call with its User-Agent and the card masked', async () => {
    await payment({ billingType: 'CREDIT_CARD', value: 50, creditCard: card(), remoteIp: '::1' })
    const last = fake.requests.at(-1)!
    expect(last).toMatchObject({ method: 'POST', path: '/payments', userAgent: 'vitrine-tests' })
    expect(JSON.stringify(last.body)).not.toContain(APPROVED_CARD)
    expect((last.body as any).creditCard.number).toBe('************4444')
    await api('POST', '/payments', {})
    expect(fake.requests.at(-1)).toMatchObject({ path: '/payments', status: 400, lost: false })
  })
})

describe('customers', () => {
  it('refuses an invalid CPF and a missing name, both at once', async () => {
    const res = await api('POST', '/customers', { cpfCnpj: '123.456.789-00' })
    expect(res.status).toBe(400)
    expect(codes(res.body).sort()).toEqual(['invalid_cpfCnpj', 'invalid_name'])
  })

  it('finds a customer by cpfCnpj, with or without punctuation', async () => {
    const id = await customer('111.444.777-35')
    const found = await api('GET', '/customers?cpfCnpj=111.444.777-35')
    expect(found.body).toMatchObject({ object: 'list', totalCount: 1, hasMore: false })
    expect(found.body.data[0]).toMatchObject({ id, cpfCnpj: '11144477735', personType: 'FISICA' })
    expect((await api('GET', '/customers?cpfCnpj=24971563792')).body.totalCount).toBe(0)
    expect((await api('GET', `/customers/${id}`)).body.name).toBe('Maria Souza')
    expect((await api('GET', '/customers/cus_000000000000')).status).toBe(404)
  })
})

describe('payment validation', () => {
  it('reports a missing value and a past due date together, as in the docs', async () => {
    const res = await payment({ billingType: 'PIX', dueDate: day(-1) })
    expect(res.status).toBe(400)
    expect(codes(res.body)).toEqual(['invalid_dueDate', 'invalid_value'])
    expect(res.body.errors[0].description).toBe(
      'A data de vencimento não pode ser inferior à hoje.',
    )
  })

  it.each([
    [{ value: 10.005 }, 'invalid_value'],
    [{ value: -10 }, 'invalid_value'],
    [{ value: '10.00' }, 'invalid_value'],
    [{ value: 4.99 }, 'invalid_value'],
    [{ value: 10, dueDate: '21/07/2030' }, 'invalid_dueDate'],
    [{ value: 10, billingType: 'DEBIT_CARD' }, 'invalid_billingType'],
    [{ value: 10, customer: 'cus_000000000000' }, 'invalid_customer'],
    [{ installmentCount: 1, totalValue: 10 }, 'invalid_installmentCount'],
    [{ installmentCount: 3 }, 'invalid_installmentValue'],
    [{ installmentCount: 3, totalValue: 14 }, 'invalid_totalValue'],
  ])('refuses %j with %s', async (fields, code) => {
    const res = await payment({ billingType: 'PIX', ...fields })
    expect(res.status).toBe(400)
    expect(codes(res.body)).toContain(code)
  })

  it('requires remoteIp, the whole holder and a well-formed card', async () => {
    const res = await payment({
      billingType: 'CREDIT_CARD',
      value: 50,
      creditCard: { ...card(), expiryMonth: '7', ccv: '31' },
      creditCardHolderInfo: { ...holder, cpfCnpj: '00000000000', phone: undefined },
    })
    expect(res.status).toBe(400)
    expect(codes(res.body)).toEqual([
      'invalid_remoteIp',
      'invalid_creditCard',
      'invalid_creditCardHolderInfo',
      'invalid_creditCardHolderInfo',
    ])
    const expired = await payment({
      billingType: 'CREDIT_CARD',
      value: 50,
      creditCard: { ...card(), expiryYear: '2020' },
      creditCardHolderInfo: holder,
      remoteIp: '203.0.113.9',
    })
    expect(expired.body.errors[0].description).toBe('O cartão está expirado.')
  })

  it('caps card installments at 21', async () => {
    const res = await payment({
      billingType: 'CREDIT_CARD',
      installmentCount: 22,
      totalValue: 500,
      creditCard: card(),
      creditCardHolderInfo: holder,
      remoteIp: '203.0.113.9',
    })
    expect(codes(res.body)).toEqual(['invalid_installmentCount'])
  })
})

describe('PIX', () => {
  it('issues a valid BR Code and its QR image, and is paid through the sandbox confirm', async () => {
    const created = await payment({ billingType: 'PIX', value: 147.9, externalReference: 'ord-1' })
    expect(created.body).toMatchObject({ status: 'PENDING', billingType: 'PIX', value: 147.9 })
    const { id, dueDate } = created.body
    const qr = (await api('GET', `/payments/${id}/pixQrCode`)).body
    const parsed = parsePixCopyPaste(qr.payload)
    expect(parsed.crcValid).toBe(true)
    expect(parsed.fields['54']).toBe('147.90')
    expect(parsed.additionalData['05']).toBe(pixTxid(id))
    const png = PNG.sync.read(Buffer.from(qr.encodedImage, 'base64'))
    expect(jsQR(new Uint8ClampedArray(png.data), png.width, png.height)?.data).toBe(qr.payload)
    expect(qr.expirationDate).toBe(`${Number(dueDate.slice(0, 4)) + 1}${dueDate.slice(4)} 23:59:59`)

    const balance = fake.balanceCents()
    const paid = await api('POST', `/sandbox/payment/${id}/confirm`)
    expect(paid.body).toMatchObject({ status: 'RECEIVED', paymentDate: expect.any(String) })
    expect(fake.balanceCents()).toBe(balance + 14_790)
    expect((await api('GET', `/payments/${id}/pixQrCode`)).status).toBe(400)
    expect(await delivered(id)).toEqual(['PAYMENT_CREATED', 'PAYMENT_RECEIVED'])
  })

  it('refunds in parts up to the value, drawing on the balance', async () => {
    const { id } = (await payment({ billingType: 'PIX', value: 100 })).body
    expect((await api('POST', `/payments/${id}/refund`)).status).toBe(400) // not paid yet
    fake.pay(id)
    const part = await api('POST', `/payments/${id}/refund`, { value: 30, description: 'troca' })
    expect(part.body).toMatchObject({
      status: 'RECEIVED',
      refunds: [{ value: 30, status: 'DONE' }],
    })
    const over = await api('POST', `/payments/${id}/refund`, { value: 70.01 })
    expect(codes(over.body)).toEqual(['invalid_value'])
    fake.setBalance(6_999)
    const poor = await api('POST', `/payments/${id}/refund`)
    expect(poor.body.errors[0].description).toBe('Saldo insuficiente para realizar o estorno.')
    fake.setBalance(7_000)
    expect((await api('POST', `/payments/${id}/refund`)).body.status).toBe('REFUNDED')
    expect(fake.balanceCents()).toBe(0)
    expect((await api('POST', `/payments/${id}/refund`)).status).toBe(400)
    expect(await delivered(id)).toEqual([
      'PAYMENT_CREATED',
      'PAYMENT_RECEIVED',
      'PAYMENT_PARTIALLY_REFUNDED',
      'PAYMENT_REFUNDED',
    ])
    fake.setBalance(100_000_000)
  })
})

describe('boleto', () => {
  it('gives a digitable line with valid check digits for the value and due date', async () => {
    const { id, nossoNumero } = (await payment({ billingType: 'BOLETO', value: 250.5 })).body
    const field = (await api('GET', `/payments/${id}/identificationField`)).body
    expect(field.identificationField).toMatch(/^\d{47}$/)
    const line = parseDigitableLine(field.identificationField)
    expect(line).toEqual({ valid: true, barcode: field.barCode })
    expect(line.barcode.slice(9, 19)).toBe('0000025050')
    expect(field.nossoNumero).toBe(nossoNumero)
    expect((await api('GET', `/payments/${id}/pixQrCode`)).status).toBe(200)
  })

  it('is removed while pending or overdue, then reads back deleted and leaves lists', async () => {
    const created = await payment({
      billingType: 'BOLETO',
      value: 20,
      externalReference: 'ord-del',
    })
    const { id } = created.body
    expect((await api('GET', '/payments?externalReference=ord-del')).body.totalCount).toBe(1)
    expect((await api('POST', `/payments/${id}/refund`)).status).toBe(400)
    fake.markOverdue(id)
    expect((await api('DELETE', `/payments/${id}`)).body).toEqual({ deleted: true, id })
    expect((await api('GET', `/payments/${id}`)).body).toMatchObject({ deleted: true })
    expect((await api('GET', '/payments?externalReference=ord-del')).body.totalCount).toBe(0)
    expect((await api('DELETE', `/payments/${id}`)).status).toBe(404)
    expect(await delivered(id)).toEqual(['PAYMENT_CREATED', 'PAYMENT_OVERDUE', 'PAYMENT_DELETED'])
  })

  it('cannot be removed once received', async () => {
    const { id } = (await payment({ billingType: 'BOLETO', value: 20 })).body
    fake.pay(id)
    expect(codes((await api('DELETE', `/payments/${id}`)).body)).toEqual(['invalid_action'])
  })
})

describe('credit card', () => {
  const paid = { billingType: 'CREDIT_CARD', creditCardHolderInfo: holder, remoteIp: '::1' }

  it('approves the test card at once and returns a reusable token', async () => {
    const res = await payment({ ...paid, value: 80, creditCard: card() })
    expect(res.body).toMatchObject({
      status: 'CONFIRMED',
      creditCard: { creditCardNumber: '4444', creditCardBrand: 'VISA' },
    })
    expect(await delivered(res.body.id)).toEqual(['PAYMENT_CREATED', 'PAYMENT_CONFIRMED'])
    const again = await api('POST', '/payments', {
      customer: res.body.customer,
      billingType: 'CREDIT_CARD',
      value: 80,
      dueDate: day(1),
      creditCardToken: res.body.creditCard.creditCardToken,
      remoteIp: '203.0.113.9',
    })
    expect(again.body.status).toBe('CONFIRMED')
    const stranger = await payment({
      billingType: 'CREDIT_CARD',
      value: 80,
      creditCardToken: res.body.creditCard.creditCardToken,
      remoteIp: '203.0.113.9',
    })
    expect(codes(stranger.body)).toEqual(['invalid_creditCardToken'])
  })

  it.each(DECLINED_CARDS)('declines %s with 400 and keeps nothing', async (number) => {
    const res = await payment({
      ...paid,
      value: 80,
      creditCard: card(number),
      externalReference: number,
    })
    expect(res.status).toBe(400)
    expect(codes(res.body)).toEqual(['invalid_creditCard'])
    expect((await api('GET', `/payments?externalReference=${number}`)).body.totalCount).toBe(0)
  })

  it('splits a total in installments, confirms them all and refunds the whole purchase', async () => {
    const first = await payment({
      ...paid,
      installmentCount: 3,
      totalValue: 100,
      creditCard: card(),
    })
    const { installment } = first.body
    expect(first.body).toMatchObject({ installmentNumber: 1, value: 33.33, status: 'CONFIRMED' })
    const all = (await api('GET', `/payments?installment=${installment}`)).body.data
    expect(all.map((p: any) => [p.installmentNumber, p.value, p.status])).toEqual([
      [1, 33.33, 'CONFIRMED'],
      [2, 33.33, 'CONFIRMED'],
      [3, 33.34, 'CONFIRMED'],
    ])
    expect((await api('GET', `/installments/${installment}`)).body).toMatchObject({
      installmentCount: 3,
      value: 100,
    })
    await api('POST', `/installments/${installment}/refund`)
    const after = (await api('GET', `/payments?installment=${installment}`)).body.data
    expect(after.map((p: any) => p.status)).toEqual(['REFUNDED', 'REFUNDED', 'REFUNDED'])
  })

  it('refunds partially, then fully; a chargeback marks the payment', async () => {
    const { id } = (await payment({ ...paid, value: 90, creditCard: card() })).body
    expect((await api('POST', `/payments/${id}/refund`, { value: 10 })).body.status).toBe(
      'CONFIRMED',
    )
    expect((await api('POST', `/payments/${id}/refund`)).body.refunds).toHaveLength(2)
    const disputed = (await payment({ ...paid, value: 60, creditCard: card() })).body.id
    expect(fake.chargeback(disputed)).toMatchObject({
      status: 'CHARGEBACK_REQUESTED',
      chargeback: { status: 'REQUESTED', reason: 'PROCESS_ERROR' },
    })
    expect(await delivered(disputed)).toEqual([
      'PAYMENT_CREATED',
      'PAYMENT_CONFIRMED',
      'PAYMENT_CHARGEBACK_REQUESTED',
    ])
  })
})

describe('split', () => {
  it('pays only known wallets, within the value', async () => {
    const walletId = fake.addWallet()
    const unknown = await payment({
      billingType: 'PIX',
      value: 100,
      split: [{ walletId: 'w-x', fixedValue: 10 }],
    })
    expect(codes(unknown.body)).toEqual(['invalid_walletId'])
    const tooMuch = await payment({
      billingType: 'PIX',
      value: 100,
      split: [
        { walletId, percentualValue: 60 },
        { walletId, fixedValue: 50 },
      ],
    })
    expect(codes(tooMuch.body)).toEqual(['invalid_split'])
    const ok = await payment({
      billingType: 'PIX',
      value: 100,
      split: [{ walletId, percentualValue: 10 }],
    })
    expect(ok.body.split).toEqual([
      { walletId, percentualValue: 10, status: 'PENDING', refusalReason: null },
    ])
  })
})

describe('transfers to a Pix key', () => {
  const transfer = (fields: Record<string, unknown>) =>
    api('POST', '/transfers', {
      value: 25,
      pixAddressKey: CPF,
      pixAddressKeyType: 'CPF',
      ...fields,
    })

  it('refuses malformed keys and more than the balance', async () => {
    expect(codes((await transfer({ pixAddressKey: '529.982.247-25' })).body)).toEqual([
      'invalid_pixAddressKey',
    ])
    expect(codes((await transfer({ pixAddressKeyType: 'RANDOM' })).body)).toEqual([
      'invalid_pixAddressKeyType',
    ])
    expect(
      codes((await transfer({ pixAddressKey: '4799999999', pixAddressKeyType: 'PHONE' })).body),
    ).toEqual(['invalid_pixAddressKey'])
    fake.setBalance(2_499)
    expect((await transfer({})).body.errors[0].description).toMatch(/Saldo insuficiente/)
    fake.setBalance(100_000_000)
  })

  it('goes PENDING → DONE, or FAILED with the money back, each with its event', async () => {
    const before = fake.balanceCents()
    const done = (await transfer({ externalReference: 'wd-1', description: 'Saque' })).body
    expect(done).toMatchObject({ status: 'PENDING', value: 25, externalReference: 'wd-1' })
    fake.completeTransfer(done.id)
    expect((await api('GET', `/transfers/${done.id}`)).body).toMatchObject({
      status: 'DONE',
      endToEndIdentifier: expect.stringMatching(/^E[0-9A-Z]{31}$/),
    })
    const failed = (await transfer({ pixAddressKey: 'a@b.co', pixAddressKeyType: 'EMAIL' })).body
    fake.failTransfer(failed.id, 'Conta encerrada.')
    expect((await api('GET', `/transfers/${failed.id}`)).body).toMatchObject({
      status: 'FAILED',
      failReason: 'Conta encerrada.',
    })
    expect(fake.balanceCents()).toBe(before - 2_500)
    expect(await delivered(done.id)).toEqual(['TRANSFER_CREATED', 'TRANSFER_DONE'])
    expect(await delivered(failed.id)).toEqual(['TRANSFER_CREATED', 'TRANSFER_FAILED'])
    expect(() => fake.failTransfer(done.id)).toThrow(/DONE/)
  })
})

describe('faults', () => {
  it('a lost answer: the payment exists, the caller never heard back', async () => {
    fake.loseNextResponse({ method: 'POST', path: '/payments' })
    await expect(
      payment({ billingType: 'PIX', value: 30, externalReference: 'lost-1' }),
    ).rejects.toThrow()
    const found = (await api('GET', '/payments?externalReference=lost-1')).body
    expect(found.totalCount).toBe(1)
    expect(fake.requests.find((r) => r.lost)).toMatchObject({ path: '/payments', status: 200 })
  })

  it('a failed call answers the status and has no effect', async () => {
    fake.failNextRequest({ path: '/payments', status: 503 })
    const res = await payment({ billingType: 'PIX', value: 30, externalReference: 'failed-1' })
    expect(res.status).toBe(503)
    expect((await api('GET', '/payments?externalReference=failed-1')).body.totalCount).toBe(0)
  })

  it('offers the same controls over HTTP under /_fake', async () => {
    const { id } = (await payment({ billingType: 'PIX', value: 12 })).body
    const res = await fetch(`${fake.origin}/_fake/payments/${id}/pay`, { method: 'POST' })
    expect(((await res.json()) as any).status).toBe('RECEIVED')
    const log = (await (await fetch(`${fake.origin}/_fake/requests`)).json()) as any[]
    expect(log.at(-1).path).toBe('/payments')
  })
})

describe('webhook delivery', () => {
  async function isolated(answer: (n: number) => Answer, pauseAfterFailures?: number) {
    let calls = 0
    const hooks = await startReceiver(() => answer(++calls))
    const own = await startFakeAsaas({
      webhook: { url: hooks.url, authToken: TOKEN, retryDelayMs: 2, pauseAfterFailures },
    })
    const res = await fetch(`${own.url}/customers`, {
      method: 'POST',
      headers: { ...headers(), access_token: own.apiKey },
      body: JSON.stringify({ name: 'Ana', cpfCnpj: CPF }),
    })
    const customerId = ((await res.json()) as any).id
    const create = (value: number) =>
      fetch(`${own.url}/payments`, {
        method: 'POST',
        headers: { ...headers(), access_token: own.apiKey },
        body: JSON.stringify({ customer: customerId, billingType: 'PIX', value, dueDate: day(1) }),
      })
    return { hooks, own, create, close: () => Promise.all([own.close(), hooks.close()]) }
  }

  it('posts the documented body with the asaas-access-token header', async () => {
    const { id } = (await payment({ billingType: 'BOLETO', value: 15 })).body
    await fake.webhooks.whenIdle()
    const hit = receiver.received.find((r) => r.body.payment?.id === id)!
    expect(hit.headers['asaas-access-token']).toBe(TOKEN)
    expect(hit.body).toMatchObject({
      id: expect.stringMatching(/^evt_[0-9a-f]{32}&\d+$/),
      event: 'PAYMENT_CREATED',
      dateCreated: expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/),
      payment: { object: 'payment', id, status: 'PENDING', value: 15 },
    })
  })

  it('retries until an HTTP 200: 201 and 500 are failures, and order is kept', async () => {
    const t = await isolated((n) => (n === 1 ? 500 : n === 2 ? 201 : 200))
    await t.create(10)
    await t.create(11)
    await t.own.webhooks.whenIdle()
    const values = t.hooks.received.map((r) => r.body.payment.value)
    expect(values).toEqual([10, 10, 10, 11])
    expect(new Set(t.hooks.received.slice(0, 3).map((r) => r.body.id)).size).toBe(1)
    expect(t.own.webhooks.attempts.map((a) => a.status)).toEqual([500, 201, 200, 200])
    await t.close()
  })

  it('a dropped delivery never reaches the receiver and is retried', async () => {
    const t = await isolated(() => 200)
    t.own.webhooks.dropNext(2)
    await t.create(10)
    await t.own.webhooks.whenIdle()
    expect(t.hooks.received).toHaveLength(1)
    expect(t.own.webhooks.attempts.map((a) => a.dropped)).toEqual([true, true, false])
    await t.close()
  })

  it('delivers one event several times at once on demand', async () => {
    const t = await isolated(() => 200)
    await t.create(10)
    await t.own.webhooks.whenIdle()
    const event = t.own.webhooks.events[0]!
    expect(await t.own.webhooks.redeliver(event.id, 3)).toEqual([200, 200, 200])
    expect(t.hooks.received.filter((r) => r.body.id === event.id)).toHaveLength(4)
    await t.close()
  })

  it('pauses after consecutive failures and sends the backlog in order once resumed', async () => {
    let healthy = false
    const t = await isolated(() => (healthy ? 200 : 503), 3)
    await t.create(10)
    await t.own.webhooks.whenIdle()
    expect(t.own.webhooks.paused).toBe(true)
    await t.create(11)
    await t.own.webhooks.whenIdle()
    expect(t.hooks.received).toHaveLength(3)
    healthy = true
    t.own.webhooks.resume()
    await t.own.webhooks.whenIdle()
    expect(t.hooks.received.slice(3).map((r) => r.body.payment.value)).toEqual([10, 11])
    expect(t.own.webhooks.pending).toBe(0)
    await t.close()
  })
})
