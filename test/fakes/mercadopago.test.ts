// The Mercado Pago fake rejects what the real API rejects and answers what it answers
// (docs/gateways/mercadopago.md). Fast: no database, only the fake and local receivers.
import { createHmac } from 'node:crypto'
import { createServer, type IncomingHttpHeaders } from 'node:http'
import type { AddressInfo } from 'node:net'
import vm from 'node:vm'
import jsQRModule from 'jsqr'
import { WebhookSignatureValidator } from 'mercadopago'
import { PNG } from 'pngjs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { parseDigitableLine } from '../../src/modules/payments/boleto.ts'
import { parsePixCopyPaste } from '../../src/modules/payments/brcode.ts'
import { type FakeMercadoPago, startFakeMercadoPago } from './mercadopago.ts'

// jsqr is CommonJS typed with only a `default`: at run time the import is the function itself.
const jsQR = jsQRModule as unknown as typeof jsQRModule.default

const HOUR = 3_600_000
const CPF = '12345678909' // the sandbox's documented test CPF (a valid one)
const MASTER = '5031433215406351' // the sandbox's Brazilian test cards
const VISA = '4235647728025682'
const AMEX = '375365153556885'

let mp: FakeMercadoPago
let clock = new Date()
let keys = 0

beforeAll(async () => {
  mp = await startFakeMercadoPago({ now: () => clock })
})
afterAll(() => mp.close())

async function api(
  method: string,
  path: string,
  opts: { body?: unknown; key?: string | null; token?: string | null } = {},
) {
  const headers: Record<string, string> = { 'content-type': 'application/json' }
  const token = opts.token === undefined ? mp.accessToken : opts.token
  if (token !== null) headers.authorization = `Bearer ${token}`
  const key = opts.key === undefined ? `key-${++keys}` : opts.key
  if (key !== null) headers['x-idempotency-key'] = key
  const res = await fetch(`${mp.url}${path}`, {
    method,
    headers,
    body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
  })
  return { status: res.status, body: (await res.json()) as any }
}

function cardToken(overrides: Record<string, unknown> = {}, holder = 'APRO') {
  return api('POST', `/v1/card_tokens?public_key=${mp.publicKey}`, {
    token: null,
    key: null,
    body: {
      card_number: MASTER,
      security_code: '123',
      expiration_month: 11,
      expiration_year: clock.getUTCFullYear() + 4,
      cardholder: { name: holder, identification: { type: 'CPF', number: CPF } },
      ...overrides,
    },
  })
}

async function tokenId(holder = 'APRO', number = MASTER, cvv = '123') {
  const res = await cardToken({ card_number: number, security_code: cvv }, holder)
  expect(res.status).toBe(201)
  return res.body.id as string
}

const pix = (extra: Record<string, unknown> = {}) => ({
  transaction_amount: 10,
  description: 'Curso',
  payment_method_id: 'pix',
  payer: { email: 'ana@example.com', identification: { type: 'CPF', number: CPF } },
  ...extra,
})

const boleto = (payer: Record<string, unknown> = {}) => ({
  transaction_amount: 147.9,
  payment_method_id: 'bolbradesco',
  payer: {
    email: 'ana@example.com',
    first_name: 'Ana',
    last_name: 'Souza',
    identification: { type: 'CPF', number: CPF },
    address: {
      zip_code: '06233200',
      street_name: 'Av. das Nações Unidas',
      street_number: '3003',
      neighborhood: 'Bonfim',
      city: 'Osasco',
      federal_unit: 'SP',
    },
    ...payer,
  },
})

const card = async (extra: Record<string, unknown> = {}, holder = 'APRO') => ({
  transaction_amount: 100.5,
  token: await tokenId(holder),
  installments: 1,
  payment_method_id: 'master',
  payer: { email: 'ana@example.com' },
  ...extra,
})

const causeOf = (res: { body: any }) => res.body.cause?.[0]?.code

describe('requests the real API refuses', () => {
  it('refuses a missing or wrong access token (401)', async () => {
    for (const token of [null, 'APP_USR-wrong']) {
      const res = await api('POST', '/v1/payments', { token, body: pix() })
      expect(res.status).toBe(401)
      expect(res.body).toMatchObject({ error: 'unauthorized', status: 401, cause: [] })
    }
    expect((await api('GET', '/v1/payments/1', { token: 'wrong' })).status).toBe(401)
  })

  it('requires X-Idempotency-Key on payments and refunds', async () => {
    const noKey = await api('POST', '/v1/payments', { key: null, body: pix() })
    expect(noKey.status).toBe(400)
    expect(noKey.body).toMatchObject({ error: 'bad_request', status: 400 })
    const paid = await api('POST', '/v1/payments', { body: await card() })
    const refund = await api('POST', `/v1/payments/${paid.body.id}/refunds`, {
      key: null,
      body: {},
    })
    expect(refund.status).toBe(400)
    expect(mp.payment(paid.body.id).status).toBe('approved')
  })

  it('checks the amount: present, a number, positive, at most two decimals', async () => {
    const cases: Array<[unknown, number]> = [
      [undefined, 4002],
      ['10.00', 4003],
      [0, 4037],
      [-5, 4037],
      [10.001, 4037],
    ]
    for (const [amount, code] of cases) {
      const res = await api('POST', '/v1/payments', { body: pix({ transaction_amount: amount }) })
      expect([res.status, causeOf(res)]).toEqual([400, code])
    }
  })

  it('checks payment_method_id, the payer e-mail and notification_url', async () => {
    const cases: Array<[Record<string, unknown>, number]> = [
      [{ payment_method_id: undefined }, 4001],
      [{ payment_method_id: 'boleto' }, 3028],
      [{ payer: { email: 'not-an-email' } }, 4050],
      [{ notification_url: 'nowhere' }, 4020],
    ]
    for (const [extra, code] of cases) {
      const res = await api('POST', '/v1/payments', { body: pix(extra) })
      expect([res.status, causeOf(res)]).toEqual([400, code])
    }
    expect(mp.requests.at(-1)!.status).toBe(400)
  })

  it('answers 404 for an unknown payment', async () => {
    const res = await api('GET', '/v1/payments/42')
    expect(res.status).toBe(404)
    expect(res.body).toMatchObject({ error: 'not_found', status: 404 })
  })
})

describe('idempotency', () => {
  it('answers a repeated request with its first answer and makes one payment', async () => {
    const body = pix({ external_reference: 'order-idem' })
    const first = await api('POST', '/v1/payments', { key: 'same-key', body })
    const again = await api('POST', '/v1/payments', { key: 'same-key', body })
    expect(first.status).toBe(201)
    expect(again).toEqual(first)
    const found = await api('GET', '/v1/payments/search?external_reference=order-idem')
    expect(found.body.paging.total).toBe(1)
  })

  it('makes one payment for concurrent requests with one key', async () => {
    const body = pix({ external_reference: 'order-race' })
    const answers = await Promise.all(
      [1, 2, 3].map(() => api('POST', '/v1/payments', { key: 'race-key', body })),
    )
    expect(new Set(answers.map((a) => a.body.id)).size).toBe(1)
    const found = await api('GET', '/v1/payments/search?external_reference=order-race')
    expect(found.body.paging.total).toBe(1)
  })

  it('refuses the key of another request', async () => {
    await api('POST', '/v1/payments', { key: 'taken-key', body: pix() })
    const res = await api('POST', '/v1/payments', {
      key: 'taken-key',
      body: pix({ transaction_amount: 11 }),
    })
    expect(res.status).toBe(409)
  })
})

describe('PIX', () => {
  it('answers pending with a valid BR Code and its QR image as a PNG', async () => {
    const res = await api('POST', '/v1/payments', { body: pix({ transaction_amount: 25.9 }) })
    expect(res.status).toBe(201)
    expect(res.body).toMatchObject({
      status: 'pending',
      status_detail: 'pending_waiting_transfer',
      payment_method_id: 'pix',
      payment_type_id: 'bank_transfer',
      transaction_amount: 25.9,
    })
    expect(Number.isInteger(res.body.id)).toBe(true)
    const { qr_code, qr_code_base64, ticket_url } = res.body.point_of_interaction.transaction_data
    const parsed = parsePixCopyPaste(qr_code)
    expect(parsed.crcValid).toBe(true)
    expect(parsed.fields['54']).toBe('25.90')
    expect(parsed.merchantAccount['00']).toBe('br.gov.bcb.pix')
    const png = PNG.sync.read(Buffer.from(qr_code_base64, 'base64'))
    const decoded = jsQR(new Uint8ClampedArray(png.data), png.width, png.height)
    expect(decoded?.data).toBe(qr_code)
    expect((await fetch(ticket_url)).status).toBe(200)
    const expires = new Date(res.body.date_of_expiration).getTime()
    expect(expires - clock.getTime()).toBe(24 * HOUR)
  })

  it('takes date_of_expiration from 30 minutes to 30 days ahead', async () => {
    const at = (ms: number) => new Date(clock.getTime() + ms).toISOString()
    const ok = await api('POST', '/v1/payments', { body: pix({ date_of_expiration: at(HOUR) }) })
    expect(new Date(ok.body.date_of_expiration).getTime()).toBe(clock.getTime() + HOUR)
    for (const bad of [at(29 * 60_000), at(31 * 24 * HOUR), '2030-01-01']) {
      const res = await api('POST', '/v1/payments', { body: pix({ date_of_expiration: bad }) })
      expect(res.status).toBe(400)
    }
  })

  it('moves to approved when the buyer pays, or to cancelled/expired', async () => {
    const a = await api('POST', '/v1/payments', { body: pix() })
    const b = await api('POST', '/v1/payments', { body: pix() })
    mp.approve(a.body.id)
    mp.expire(b.body.id)
    expect((await api('GET', `/v1/payments/${a.body.id}`)).body).toMatchObject({
      status: 'approved',
      status_detail: 'accredited',
    })
    expect(mp.payment(b.body.id)).toMatchObject({ status: 'cancelled', status_detail: 'expired' })
    expect(() => mp.approve(b.body.id)).toThrow()
  })
})

describe('boleto', () => {
  it('answers pending with a valid digitable line for the amount, due in 3 days', async () => {
    const res = await api('POST', '/v1/payments', { body: boleto() })
    expect(res.status).toBe(201)
    expect(res.body).toMatchObject({
      status: 'pending',
      status_detail: 'pending_waiting_payment',
      payment_type_id: 'ticket',
    })
    const { digitable_line, external_resource_url } = res.body.transaction_details
    const parsed = parseDigitableLine(digitable_line)
    expect(parsed.valid).toBe(true)
    expect(parsed.barcode.slice(0, 3)).toBe('237')
    expect(parsed.barcode.slice(9, 19)).toBe('0000014790')
    expect(res.body.barcode.content).toBe(parsed.barcode)
    expect((await fetch(external_resource_url)).status).toBe(200)
    const due = new Date(res.body.date_of_expiration).getTime()
    expect(due - clock.getTime()).toBe(72 * HOUR)
  })

  it('requires the payer name, a valid CPF/CNPJ and the address', async () => {
    const cases: Array<[Record<string, unknown>, number | string]> = [
      [{ identification: { type: 'CPF', number: '12345678900' } }, 2067],
      [{ first_name: '' }, 'missing_payer_first_name'],
      [{ address: { zip_code: '06233200' } }, 'missing_payer_address'],
    ]
    for (const [payer, code] of cases) {
      const res = await api('POST', '/v1/payments', { body: boleto(payer) })
      expect([res.status, causeOf(res)]).toEqual([400, code])
    }
  })
})

describe('card tokens', () => {
  it('tokenizes with the public key: single-use, valid for 7 days', async () => {
    const res = await cardToken()
    expect(res.status).toBe(201)
    expect(res.body).toMatchObject({
      status: 'active',
      first_six_digits: '503143',
      last_four_digits: '6351',
      cardholder: { name: 'APRO', identification: { type: 'CPF', number: CPF } },
    })
    expect(new Date(res.body.date_due).getTime() - clock.getTime()).toBe(7 * 24 * HOUR)
    const wrongKey = await api('POST', '/v1/card_tokens?public_key=nope', { token: null, body: {} })
    expect(wrongKey.status).toBe(401)
  })

  it('refuses bad card data with MercadoPago.js codes', async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ card_number: '' }, '205'],
      [{ card_number: '5031433215406352' }, 'E301'],
      [{ expiration_month: 13 }, '325'],
      [{ expiration_year: clock.getUTCFullYear() - 1 }, '326'],
      [{ security_code: '12' }, 'E203'],
      [{ cardholder: { identification: { type: 'CPF', number: CPF } } }, '221'],
      [{ cardholder: { name: 'APRO', identification: { type: 'CPF', number: '111' } } }, '324'],
    ]
    for (const [overrides, code] of cases) {
      const res = await cardToken(overrides)
      expect([res.status, causeOf(res)]).toEqual([400, code])
    }
  })

  it('pays once: a used, expired, unknown or other-brand token is refused', async () => {
    const body = await card()
    expect((await api('POST', '/v1/payments', { body })).status).toBe(201)
    const reused = await api('POST', '/v1/payments', { body })
    expect([reused.status, causeOf(reused)]).toEqual([400, 3003])
    const unknown = await api('POST', '/v1/payments', { body: { ...body, token: 'f'.repeat(32) } })
    expect([unknown.status, causeOf(unknown)]).toEqual([400, 2006])
    const visa = await card({ payment_method_id: 'visa' })
    expect((await api('POST', '/v1/payments', { body: visa })).body.message).toBe('diff_param_bins')
    // A token refused for its brand is still unused.
    expect(
      (await api('POST', '/v1/payments', { body: { ...visa, payment_method_id: 'master' } }))
        .status,
    ).toBe(201)
    const old = await card()
    clock = new Date(clock.getTime() + 7 * 24 * HOUR)
    const expired = await api('POST', '/v1/payments', { body: old })
    expect([expired.status, causeOf(expired)]).toEqual([400, 3003])
  })
})

describe('card payments', () => {
  it('answers each sandbox cardholder name as documented', async () => {
    const expected: Record<string, [string, string]> = {
      APRO: ['approved', 'accredited'],
      OTHE: ['rejected', 'cc_rejected_other_reason'],
      CONT: ['in_process', 'pending_contingency'],
      CALL: ['rejected', 'cc_rejected_call_for_authorize'],
      FUND: ['rejected', 'cc_rejected_insufficient_amount'],
      SECU: ['rejected', 'cc_rejected_bad_filled_security_code'],
      EXPI: ['rejected', 'cc_rejected_bad_filled_date'],
      FORM: ['rejected', 'cc_rejected_bad_filled_other'],
    }
    for (const [name, [status, detail]] of Object.entries(expected)) {
      const res = await api('POST', '/v1/payments', { body: await card({}, name) })
      expect([name, res.body.status, res.body.status_detail]).toEqual([name, status, detail])
    }
  })

  it('charges Visa and Amex test cards, shows only the last four digits', async () => {
    for (const [number, brand, cvv] of [
      [VISA, 'visa', '123'],
      [AMEX, 'amex', '1234'],
    ] as const) {
      const body = {
        ...(await card()),
        token: await tokenId('APRO', number, cvv),
        payment_method_id: brand,
      }
      const res = await api('POST', '/v1/payments', { body })
      expect(res.body).toMatchObject({
        status: 'approved',
        card: { last_four_digits: number.slice(-4) },
      })
      expect(JSON.stringify(res.body)).not.toContain(number)
    }
  })

  it('takes 1 to 12 installments of at least R$ 5,00', async () => {
    const ok = await api('POST', '/v1/payments', {
      body: await card({ installments: 12, transaction_amount: 120 }),
    })
    expect(ok.body).toMatchObject({
      installments: 12,
      transaction_details: { installment_amount: 10 },
    })
    for (const [installments, amount, code] of [
      [undefined, 100, 4004],
      ['3', 100, 4005],
      [0, 100, 109],
      [13, 100, 109],
      [12, 59.99, 109],
    ] as const) {
      const body = await card({ installments, transaction_amount: amount })
      const res = await api('POST', '/v1/payments', { body })
      expect([res.status, causeOf(res)]).toEqual([400, code])
    }
  })

  it('decides a card under review later, and a token outcome can be forced', async () => {
    const review = await api('POST', '/v1/payments', { body: await card({}, 'CONT') })
    const declined = await api('POST', '/v1/payments', { body: await card({}, 'CONT') })
    mp.approve(review.body.id)
    mp.reject(declined.body.id)
    expect(mp.payment(review.body.id).status).toBe('approved')
    expect(mp.payment(declined.body.id).status_detail).toBe('cc_rejected_other_reason')
    const body = await card()
    mp.setCardOutcome(body.token, 'FUND')
    expect((await api('POST', '/v1/payments', { body })).body.status_detail).toBe(
      'cc_rejected_insufficient_amount',
    )
  })
})

describe('cancel, refunds, chargeback', () => {
  it('cancels a pending payment only', async () => {
    const pending = await api('POST', '/v1/payments', { body: pix() })
    const cancelled = await api('PUT', `/v1/payments/${pending.body.id}`, {
      body: { status: 'cancelled' },
    })
    expect(cancelled.body).toMatchObject({ status: 'cancelled', status_detail: 'by_collector' })
    const paid = await api('POST', '/v1/payments', { body: await card() })
    const refused = await api('PUT', `/v1/payments/${paid.body.id}`, {
      body: { status: 'cancelled' },
    })
    expect([refused.status, causeOf(refused)]).toEqual([400, 3005])
  })

  it('refunds in part, then the rest; never more than paid; replays a repeated refund', async () => {
    const { body: paid } = await api('POST', '/v1/payments', { body: await card() })
    const part = await api('POST', `/v1/payments/${paid.id}/refunds`, {
      key: 'r-1',
      body: { amount: 40.5 },
    })
    expect(part.status).toBe(201)
    expect(part.body).toMatchObject({ payment_id: paid.id, amount: 40.5, status: 'approved' })
    const replay = await api('POST', `/v1/payments/${paid.id}/refunds`, {
      key: 'r-1',
      body: { amount: 40.5 },
    })
    expect(replay.body.id).toBe(part.body.id)
    expect(mp.payment(paid.id)).toMatchObject({
      status: 'approved',
      status_detail: 'partially_refunded',
      transaction_amount_refunded: 40.5,
    })
    const tooMuch = await api('POST', `/v1/payments/${paid.id}/refunds`, {
      body: { amount: 60.01 },
    })
    expect(tooMuch.status).toBe(400)
    const rest = await api('POST', `/v1/payments/${paid.id}/refunds`, { body: {} })
    expect(rest.body.amount).toBe(60)
    const list = await api('GET', `/v1/payments/${paid.id}/refunds`)
    expect(list.body.map((r: any) => r.amount)).toEqual([40.5, 60])
    expect(mp.payment(paid.id)).toMatchObject({
      status: 'refunded',
      transaction_amount_refunded: 100.5,
    })
    const pending = await api('POST', '/v1/payments', { body: pix() })
    expect(
      (await api('POST', `/v1/payments/${pending.body.id}/refunds`, { body: {} })).status,
    ).toBe(400)
  })

  it('charges back an approved payment', async () => {
    const { body: paid } = await api('POST', '/v1/payments', { body: await card() })
    mp.chargeback(paid.id)
    expect(mp.payment(paid.id).status).toBe('charged_back')
    expect((await api('POST', `/v1/payments/${paid.id}/refunds`, { body: {} })).status).toBe(400)
  })
})

describe('lost and failed answers', () => {
  it('a lost answer still made the payment; retrying with its key finds it', async () => {
    const body = pix({ external_reference: 'order-lost' })
    mp.loseNextAnswer({ method: 'POST', path: '/v1/payments' })
    await expect(api('POST', '/v1/payments', { key: 'lost-key', body })).rejects.toThrow()
    const retry = await api('POST', '/v1/payments', { key: 'lost-key', body })
    expect(retry.status).toBe(201)
    const found = await api('GET', '/v1/payments/search?external_reference=order-lost')
    expect(found.body.results.map((p: any) => p.id)).toEqual([retry.body.id])
  })

  it('a failed answer made nothing', async () => {
    mp.failNext(503)
    const res = await api('POST', '/v1/payments', {
      body: pix({ external_reference: 'order-503' }),
    })
    expect(res.status).toBe(503)
    const found = await api('GET', '/v1/payments/search?external_reference=order-503')
    expect(found.body.paging.total).toBe(0)
  })
})

// ---- notifications ----

interface Hit {
  url: URL
  headers: IncomingHttpHeaders
  body: any
}

/** A receiver answering with the given statuses in turn (the last one repeats). */
async function receiver(statuses: number[] = [200]) {
  const hits: Hit[] = []
  const server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c) => chunks.push(c))
    req.on('end', () => {
      hits.push({
        url: new URL(req.url!, 'http://receiver'),
        headers: req.headers,
        body: JSON.parse(Buffer.concat(chunks).toString() || 'null'),
      })
      res.writeHead(statuses[Math.min(hits.length, statuses.length) - 1]!).end()
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}/callback?source_news=webhooks`,
    hits,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}

/** The documented check, written here from the Webhooks page and independent of the fake. */
function signedByMercadoPago(hit: Hit, secret: string): boolean {
  const parts = Object.fromEntries(
    String(hit.headers['x-signature'] ?? '')
      .split(',')
      .map((part) => part.split('=').map((s) => s.trim())),
  )
  const manifest = `id:${hit.url.searchParams.get('data.id')};request-id:${hit.headers['x-request-id']};ts:${parts.ts};`
  return parts.v1 === createHmac('sha256', secret).update(manifest).digest('hex')
}

function sdkAccepts(hit: Hit, secret: string): boolean {
  try {
    WebhookSignatureValidator.validate({
      xSignature: hit.headers['x-signature'],
      xRequestId: hit.headers['x-request-id'],
      dataId: hit.url.searchParams.get('data.id'),
      secret,
      toleranceSeconds: 300,
    })
    return true
  } catch {
    return false
  }
}

describe('notifications', () => {
  let fake: FakeMercadoPago
  beforeAll(async () => {
    fake = await startFakeMercadoPago({ retryDelaysMs: [10, 10, 10] })
  })
  afterAll(() => fake.close())

  async function payPix(notificationUrl: string) {
    const res = await fetch(`${fake.url}/v1/payments`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${fake.accessToken}`,
        'content-type': 'application/json',
        'x-idempotency-key': `n-${++keys}`,
      },
      body: JSON.stringify(pix({ notification_url: notificationUrl })),
    })
    return ((await res.json()) as any).id as number
  }

  it('signs each notification as the SDK and the documented algorithm verify it', async () => {
    const rx = await receiver()
    const id = await payPix(rx.url)
    fake.approve(id)
    await fake.settled()
    expect(rx.hits.map((h) => h.body.action)).toEqual(['payment.created', 'payment.updated'])
    for (const hit of rx.hits) {
      expect(hit.url.searchParams.get('data.id')).toBe(String(id))
      expect(hit.url.searchParams.get('type')).toBe('payment')
      expect(hit.body).toMatchObject({
        type: 'payment',
        api_version: 'v1',
        data: { id: String(id) },
      })
      expect(signedByMercadoPago(hit, fake.webhookSecret)).toBe(true)
      expect(sdkAccepts(hit, fake.webhookSecret)).toBe(true)
      expect(signedByMercadoPago(hit, 'another-secret')).toBe(false)
    }
    expect(new Set(rx.hits.map((h) => h.headers['x-request-id'])).size).toBe(2)
    await rx.close()
  })

  it('retries until the receiver answers 200 or 201 (204 does not count)', async () => {
    const rx = await receiver([500, 204, 201])
    await payPix(rx.url)
    await fake.settled()
    expect(rx.hits).toHaveLength(3)
    expect(new Set(rx.hits.map((h) => h.body.id)).size).toBe(1)
    expect(rx.hits.every((h) => signedByMercadoPago(h, fake.webhookSecret))).toBe(true)
    await rx.close()
  })

  it('delivers twice, concurrently, or not at all on demand; resends the same notification', async () => {
    const counts: Record<string, number> = {}
    for (const mode of ['twice', 'concurrently', 'never'] as const) {
      const rx = await receiver()
      fake.setDelivery(mode)
      await payPix(rx.url)
      await fake.settled()
      counts[mode] = rx.hits.length
      if (rx.hits.length === 2) expect(rx.hits[0]!.body.id).toBe(rx.hits[1]!.body.id)
      await rx.close()
    }
    fake.setDelivery('once')
    expect(counts).toEqual({ twice: 2, concurrently: 2, never: 0 })
    const rx = await receiver()
    const id = await payPix(rx.url)
    await fake.settled()
    expect(fake.resend(id)).toBe(true)
    await fake.settled()
    expect(rx.hits.map((h) => h.body.id)).toEqual([rx.hits[0]!.body.id, rx.hits[0]!.body.id])
    await rx.close()
  })

  it('sends forgeries a correct receiver refuses, and a stale replay the tolerance catches', async () => {
    const rx = await receiver()
    const id = await payPix(rx.url)
    await fake.settled()
    for (const how of ['wrong-secret', 'unsigned', 'tampered-id', 'stale'] as const)
      fake.forge(id, how)
    await fake.settled()
    const [, ...forged] = rx.hits
    expect(forged.map((h) => signedByMercadoPago(h, fake.webhookSecret))).toEqual([
      false,
      false,
      false,
      true,
    ])
    expect(forged.map((h) => sdkAccepts(h, fake.webhookSecret))).toEqual([
      false,
      false,
      false,
      false,
    ])
    await rx.close()
  })

  it('also sends the legacy IPN, unverifiable, unless the URL says source_news=webhooks', async () => {
    const rx = await receiver()
    await payPix(rx.url.replace('?source_news=webhooks', ''))
    await fake.settled()
    const ipn = rx.hits.find((h) => h.url.searchParams.get('topic') === 'payment')!
    expect(ipn.body).toEqual({ resource: ipn.url.searchParams.get('id'), topic: 'payment' })
    expect(sdkAccepts(ipn, fake.webhookSecret)).toBe(false)
    expect(rx.hits.filter((h) => h.url.searchParams.has('data.id'))).toHaveLength(1)
    await rx.close()
  })
})

describe('MercadoPago.js stand-in and the control surface', () => {
  it('tokenizes a card from a page through window.MercadoPago', async () => {
    const preflight = await fetch(`${mp.url}/v1/card_tokens`, { method: 'OPTIONS' })
    expect(preflight.headers.get('access-control-allow-origin')).toBe('*')
    const window: any = {}
    vm.runInNewContext(await (await fetch(`${mp.url}/js/v2`)).text(), { window, fetch })
    const sdk = new window.MercadoPago(mp.publicKey, { locale: 'pt-BR' })
    const data = {
      cardNumber: VISA,
      cardholderName: 'APRO',
      cardExpirationMonth: '11',
      cardExpirationYear: String(clock.getUTCFullYear() + 3),
      securityCode: '123',
      identificationType: 'CPF',
      identificationNumber: CPF,
    }
    const token = await sdk.createCardToken(data)
    expect(token).toMatchObject({ status: 'active', last_four_digits: VISA.slice(-4) })
    const methods = await sdk.getPaymentMethods({ bin: VISA.slice(0, 8) })
    expect(methods.results[0]).toMatchObject({ id: 'visa', payment_type_id: 'credit_card' })
    expect((await sdk.getIdentificationTypes()).map((t: any) => t.id)).toEqual(['CPF', 'CNPJ'])
    const error = await sdk
      .createCardToken({ ...data, cardNumber: '4235647728025683' })
      .catch((e: unknown) => e)
    expect(JSON.parse(JSON.stringify(error))).toEqual([
      { code: 'E301', description: 'invalid parameter cardNumber', data: null },
    ])
    const body = { ...(await card()), token: token.id, payment_method_id: 'visa' }
    expect((await api('POST', '/v1/payments', { body })).body.status).toBe('approved')
  })

  it('drives payments over HTTP under /_fake', async () => {
    const { body } = await api('POST', '/v1/payments', { body: pix() })
    const res = await fetch(`${mp.url}/_fake/payments/${body.id}/approve`, { method: 'POST' })
    expect(((await res.json()) as any).status).toBe('approved')
    const again = await fetch(`${mp.url}/_fake/payments/${body.id}/approve`, { method: 'POST' })
    expect(again.status).toBe(400)
    const page = await (await fetch(`${mp.url}/_fake/pay/${body.id}`)).text()
    expect(page).toContain('approved')
  })
})
