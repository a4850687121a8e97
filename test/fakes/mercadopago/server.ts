// The fake's HTTP server: Mercado Pago's routes under /v1, strict about the access token and
// X-Idempotency-Key; MercadoPago.js at /js/v2; test controls under /_fake (./controls.ts).
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { pixQrDataUrl } from '../../../src/modules/payments/qr.ts'
import {
  createCardToken,
  IDENTIFICATION_TYPES,
  outcomeOfName,
  paymentMethodsForBin,
  tokenResource,
  usableToken,
} from './cards.ts'
import { handleControl } from './controls.ts'
import {
  ApiError,
  CORS_HEADERS,
  notFound,
  parseJsonObject,
  readBody,
  sendJson,
  sendText,
} from './http.ts'
import { cancel, refund as refundPayment } from './moves.ts'
import { createPayment, type Refund } from './payments.ts'
import { refundResource } from './resources.ts'
import { sdkScript } from './sdk-js.ts'
import {
  type Answer,
  createState,
  type FakeMercadoPagoOptions,
  type FakeState,
  type Fault,
  moved,
  paymentOf,
  type RecordedRequest,
  resourceOf,
} from './state.ts'

export async function startServer(opts: FakeMercadoPagoOptions) {
  const state = createState(opts)
  const server = createServer((req, res) => {
    serve(state, req, res).catch((err) => {
      if (!res.headersSent) sendJson(res, 500, { message: String(err), error: 'internal_error' })
    })
  })
  await new Promise<void>((resolve) =>
    server.listen(opts.port ?? 0, opts.host ?? '127.0.0.1', resolve),
  )
  const { address, port } = server.address() as AddressInfo
  state.url = `http://${address.includes(':') ? `[${address}]` : address}:${port}`
  const close = () =>
    new Promise<void>((resolve) => {
      state.notifier.close()
      state.gate?.open()
      server.closeAllConnections()
      server.close(() => resolve())
    })
  return { state, close }
}

async function serve(state: FakeState, req: IncomingMessage, res: ServerResponse) {
  const url = new URL(req.url ?? '/', 'http://fake')
  const method = req.method ?? 'GET'
  if (method === 'OPTIONS') {
    res.writeHead(204, CORS_HEADERS).end()
    return
  }
  if (method === 'GET' && url.pathname === '/js/v2') {
    sendText(res, 200, 'text/javascript', sdkScript(state.url))
    return
  }
  if (url.pathname.startsWith('/_fake')) {
    await handleControl(state, req, res, url)
    return
  }
  const raw = await readBody(req)
  const entry: RecordedRequest = {
    method,
    path: url.pathname + url.search,
    headers: req.headers,
    body: raw,
    status: 0,
  }
  state.requests.push(entry)
  const gate = state.gate
  if (gate) {
    gate.waiting++
    await gate.opened
    gate.waiting--
  }
  const fault = takeFault(state, method, url.pathname)
  if (fault?.kind === 'fail') {
    entry.status = fault.status
    sendJson(res, fault.status, {
      message: 'internal_error',
      error: 'internal_error',
      status: fault.status,
      cause: [],
    })
    return
  }
  const answer = await route(state, req, url, raw).catch((err): Answer => {
    if (err instanceof ApiError) return { status: err.status, body: err.body }
    throw err
  })
  if (fault?.kind === 'lose') {
    // The request took effect; the client only sees its connection die.
    entry.status = 'lost'
    req.socket.destroy()
    return
  }
  entry.status = answer.status
  sendJson(res, answer.status, answer.body)
}

function takeFault(state: FakeState, method: string, path: string): Fault | undefined {
  const i = state.faults.findIndex(
    (f) => (!f.method || f.method === method) && (!f.path || path.startsWith(f.path)),
  )
  return i === -1 ? undefined : state.faults.splice(i, 1)[0]
}

async function route(
  state: FakeState,
  req: IncomingMessage,
  url: URL,
  raw: string,
): Promise<Answer> {
  const method = req.method ?? 'GET'
  const path = url.pathname.replace(/\/+$/, '')
  const body = () => parseJsonObject(raw, req.headers['content-type'])
  const now = state.now()

  // Card data travels from the browser with the public key (or from a server with the token).
  if (path === '/v1/card_tokens' && method === 'POST') {
    authorizePublic(state, req, url)
    const token = createCardToken(body(), now)
    state.tokens.set(token.id, token)
    return { status: 201, body: tokenResource(token, state.publicKey) }
  }
  if (path === '/v1/payment_methods/search' && method === 'GET') {
    authorizePublic(state, req, url)
    return { status: 200, body: paymentMethodsForBin(url.searchParams.get('bin') ?? '') }
  }
  if (path === '/v1/identification_types' && method === 'GET') {
    authorizePublic(state, req, url)
    return { status: 200, body: IDENTIFICATION_TYPES }
  }

  authorize(state, req)
  if (path === '/v1/payments' && method === 'POST') {
    return idempotent(state, req, path, body(), async (input) => {
      const p = createPayment(input, {
        id: state.nextId++,
        now,
        cardToken: (id) => usableToken(state.tokens.get(id), now),
        outcomeOf: (token) =>
          state.cardOutcomes.get(token.id) ?? outcomeOfName(token.cardholder.name),
        maxInstallments: state.maxInstallments,
        minInstallmentCents: state.minInstallmentCents,
      })
      state.payments.set(p.id, p)
      if (p.pix) state.qrImages.set(p.id, pixQrDataUrl(p.pix.qrCode).split(',')[1]!)
      state.notifier.notify(p.id, p.notificationUrl, 'payment.created')
      return { status: 201, body: resourceOf(state, p) }
    })
  }
  if (path === '/v1/payments/search' && method === 'GET')
    return { status: 200, body: search(state, url) }

  const match = /^\/v1\/payments\/(\d+)(\/refunds(?:\/(\d+))?)?$/.exec(path)
  if (!match) throw new ApiError(404, 'not_found', `resource ${path} not found`)
  const p = paymentOf(state, match[1]!)
  if (!match[2]) {
    if (method === 'GET') return { status: 200, body: resourceOf(state, p) }
    if (method === 'PUT') {
      const input = body()
      if (input.status !== 'cancelled' || Object.keys(input).length !== 1) {
        throw new ApiError(400, 'bad_request', 'the fake updates only {"status":"cancelled"}')
      }
      return { status: 200, body: moved(state, p, (x) => cancel(x, now)) }
    }
  } else if (match[3]) {
    const refund = p.refunds.find((r) => r.id === Number(match[3]))
    if (method === 'GET' && refund) return { status: 200, body: refundResource(p, refund) }
    if (method === 'GET') throw notFound('Refund')
  } else if (method === 'GET') {
    return { status: 200, body: p.refunds.map((r) => refundResource(p, r)) }
  } else if (method === 'POST') {
    return idempotent(state, req, path, body(), async (input) => {
      let refund: Refund | undefined
      moved(state, p, (x) => {
        refund = refundPayment(x, input.amount, state.nextId++, now)
      })
      return { status: 201, body: refundResource(p, refund!) }
    })
  }
  throw new ApiError(405, 'method_not_allowed', `${method} ${path} is not allowed`)
}

function authorize(state: FakeState, req: IncomingMessage) {
  if (req.headers.authorization !== `Bearer ${state.accessToken}`) {
    throw new ApiError(401, 'unauthorized', 'invalid access token')
  }
}

function authorizePublic(state: FakeState, req: IncomingMessage, url: URL) {
  if (url.searchParams.get('public_key') === state.publicKey) return
  if (req.headers.authorization) return authorize(state, req)
  throw new ApiError(401, 'unauthorized', 'invalid public_key')
}

/**
 * X-Idempotency-Key is mandatory on payments and refunds. The same key with the same body gets
 * the first answer again (no second effect, no second notification); the same key with another
 * body is refused. Only successful answers are kept, so a corrected retry may reuse its key.
 */
function idempotent(
  state: FakeState,
  req: IncomingMessage,
  path: string,
  input: Record<string, any>,
  run: (input: Record<string, any>) => Promise<Answer>,
): Promise<Answer> {
  const key = req.headers['x-idempotency-key']
  if (typeof key !== 'string' || key.trim() === '') {
    throw new ApiError(400, 'bad_request', 'X-Idempotency-Key header is required', [
      { code: 'missing_idempotency_key', description: 'X-Idempotency-Key header is required' },
    ])
  }
  const slot = `${path} ${key}`
  const fingerprint = canonical(input)
  const seen = state.idempotent.get(slot)
  if (seen && seen.fingerprint !== fingerprint) {
    throw new ApiError(409, 'conflict', 'X-Idempotency-Key already used with a different body', [
      { code: 'idempotency_key_reused', description: 'the key belongs to another request' },
    ])
  }
  if (seen) return seen.answer
  const answer = run(input)
  state.idempotent.set(slot, { fingerprint, answer })
  answer.catch(() => state.idempotent.delete(slot))
  return answer
}

function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`
  if (value && typeof value === 'object') {
    const entries = Object.entries(value).sort(([a], [b]) => (a < b ? -1 : 1))
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`
  }
  return JSON.stringify(value)
}

function search(state: FakeState, url: URL) {
  const q = url.searchParams
  const limit = Math.min(Number(q.get('limit') ?? 30) || 30, 1000)
  const offset = Number(q.get('offset') ?? 0) || 0
  const found = [...state.payments.values()]
    .filter(
      (p) => !q.has('external_reference') || p.externalReference === q.get('external_reference'),
    )
    .filter((p) => !q.has('status') || p.status === q.get('status'))
    .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || a.id - b.id)
  if (q.get('criteria') !== 'asc') found.reverse()
  return {
    paging: { total: found.length, limit, offset },
    results: found.slice(offset, offset + limit).map((p) => resourceOf(state, p)),
  }
}
