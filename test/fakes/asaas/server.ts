// A local, in-memory Asaas API v3 over real HTTP: strict about the headers, fields and amounts
// the docs require (docs/gateways/asaas.md), with controls for what only the outside world does
// (a payer paying, a bank failing a transfer) and for faults (a lost answer, a lost webhook).
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { boletoPdf } from '../../../src/modules/payments/gateways/sandbox-boleto-pdf.ts'
import { Book, type Limits } from './book.ts'
import { AsaasError, fail } from './errors.ts'
import { newId } from './format.ts'
import {
  errorsBody,
  type Json,
  maskCard,
  type RequestMatch,
  readBody,
  readRequest,
  route,
  safeParse,
  send,
  take,
} from './http.ts'
import { customerJson, paymentJson, transferJson } from './json.ts'
import { chargeback, markOverdue, pay } from './payment-actions.ts'
import { apiRoutes, controlRoutes, type Route } from './routes.ts'
import { completeTransfer, failTransfer } from './transfers.ts'
import { type WebhookOptions, WebhookSender } from './webhooks.ts'

export type { RequestMatch } from './http.ts'

export const DEFAULT_API_KEY = '$aact_hmlg_fake_asaas_key'

export interface FakeAsaasOptions {
  host?: string
  /** 0 (default) picks a free port. */
  port?: number
  /** The `access_token` the API accepts. */
  apiKey?: string
  webhook?: WebhookOptions
  /** The fake's clock, for "today" (due dates) and timestamps. */
  now?: () => Date
  /** Starting account balance in centavos (transfers and refunds draw on it). */
  balanceCents?: number
  minimumValueCents?: number
  maxCardInstallments?: number
  /** Called with one line per API call and per event (the CLI prints them). */
  log?: (line: string) => void
}

export interface RecordedRequest {
  method: string
  /** Under /v3, e.g. "/payments/pay_x/refund". */
  path: string
  query: string
  accessToken: 'valid' | 'invalid' | 'missing'
  userAgent: string | null
  contentType: string | null
  /** The JSON sent, card number and security code masked. */
  body: unknown
  status: number
  /** The effect happened but the connection was dropped before the answer (`loseNextResponse`). */
  lost: boolean
}

export interface FakeControls {
  requests: RecordedRequest[]
  webhooks: WebhookSender
  payment(id: string): Json | undefined
  payments(): Json[]
  transfer(id: string): Json | undefined
  transfers(): Json[]
  customers(): Json[]
  balanceCents(): number
  setBalance(cents: number): void
  /** A wallet of another Asaas account, which splits may then pay. */
  addWallet(): string
  /** The payer pays (Pix/boleto → RECEIVED; card: PENDING → CONFIRMED → RECEIVED). */
  pay(paymentId: string, paidCents?: number): Json
  markOverdue(paymentId: string): Json
  chargeback(paymentId: string, reason?: string): Json
  completeTransfer(transferId: string): Json
  failTransfer(transferId: string, reason?: string): Json
  /** The next matching call takes effect, then its connection drops without an answer. */
  loseNextResponse(match?: RequestMatch): void
  /** The next matching call answers `status` (default 500) and has no effect. */
  failNextRequest(match?: RequestMatch & { status?: number | undefined }): void
}

export interface FakeAsaas extends FakeControls {
  /** The API base, ".../v3": what ASAAS_API_URL points at. */
  url: string
  origin: string
  apiKey: string
  close(): Promise<void>
}

export async function startFakeAsaas(options: FakeAsaasOptions = {}): Promise<FakeAsaas> {
  const host = options.host ?? '127.0.0.1'
  const apiKey = options.apiKey ?? DEFAULT_API_KEY
  const log = options.log ?? (() => {})
  const webhooks = new WebhookSender(options.webhook)
  const lost: RequestMatch[] = []
  const failures: (RequestMatch & { status?: number | undefined })[] = []
  const requests: RecordedRequest[] = []
  // Routes need the book, which needs the origin: both are set once the port is known.
  let api: Route[] = []
  let controls: Route[] = []

  /** The endpoint's answer, or Asaas' refusal of the call's key, headers or body. */
  async function callApi(
    req: IncomingMessage,
    method: string,
    path: string,
    raw: Buffer,
    url: URL,
  ) {
    try {
      const body = readRequest(req, method, raw, apiKey)
      const failure = take(failures, method, path)
      if (failure) fail(failure.status ?? 500, 'fake_failure', 'Falha simulada pelo fake.')
      return await route(api, method, path, url.searchParams, body)
    } catch (error) {
      if (error instanceof AsaasError)
        return { status: error.status, body: { errors: error.errors } }
      throw error
    }
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const raw = await readBody(req)
    const url = new URL(req.url ?? '/', 'http://fake')
    const method = req.method ?? 'GET'
    if (url.pathname.startsWith('/_fake/')) {
      const body = raw.length > 0 ? safeParse(raw) : {}
      if (typeof body !== 'object' || body === null)
        return send(res, 400, errorsBody('invalid_object', 'O corpo deve ser um objeto JSON.'))
      const answer = await route(
        controls,
        method,
        url.pathname.slice(6),
        url.searchParams,
        body as Json,
      )
      return send(res, answer.status, answer.body)
    }
    // The boleto's PDF behind `bankSlipUrl` (json.ts): public, like Asaas' own link.
    const slip = /^\/b\/pdf\/([^/]+)$/.exec(url.pathname)
    if (slip && method === 'GET') {
      const payment = book.payments.get(`pay_${slip[1]}`)
      if (payment?.billingType !== 'BOLETO')
        return send(res, 404, errorsBody('not_found', 'Boleto não encontrado.'))
      res.writeHead(200, { 'content-type': 'application/pdf' })
      return void res.end(boletoPdf([`Boleto Asaas (fake) ${payment.id}`]))
    }
    if (!url.pathname.startsWith('/v3/'))
      return send(res, 404, errorsBody('not_found', 'O endpoint solicitado não existe.'))
    const path = url.pathname.slice(3)
    const token = req.headers.access_token
    const entry: RecordedRequest = {
      method,
      path,
      query: url.search,
      accessToken: token === undefined ? 'missing' : token === apiKey ? 'valid' : 'invalid',
      userAgent: req.headers['user-agent'] ?? null,
      contentType: req.headers['content-type'] ?? null,
      body: raw.length > 0 ? maskCard(safeParse(raw)) : null,
      status: 0,
      lost: false,
    }
    requests.push(entry)
    const answer = await callApi(req, method, path, raw, url)
    entry.status = answer.status
    log(`${method} ${path}${url.search} → ${answer.status}`)
    if (take(lost, method, path)) {
      entry.lost = true
      req.socket.destroy()
      return
    }
    send(res, answer.status, answer.body)
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (error instanceof AsaasError) return send(res, error.status, { errors: error.errors })
      log(`fake error: ${(error as Error).stack}`)
      send(res, 500, errorsBody('internal_error', 'Erro interno do fake.'))
    })
  })
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, host, resolve))
  const { port } = server.address() as AddressInfo
  const origin = `http://${host.includes(':') ? `[${host}]` : host}:${port}`
  const limits: Limits = {
    minimumValueCents: options.minimumValueCents ?? 500,
    maxCardInstallments: options.maxCardInstallments ?? 21,
  }
  const book = new Book(
    options.now ?? (() => new Date()),
    origin,
    limits,
    options.balanceCents ?? 100_000_000,
    (event) => {
      log(`event ${event.event} ${event.id}`)
      webhooks.publish(event)
    },
  )

  const fake: FakeAsaas = {
    url: `${origin}/v3`,
    origin,
    apiKey,
    requests,
    webhooks,
    payment: (id) => {
      const p = book.payments.get(id)
      return p && paymentJson(p, origin)
    },
    payments: () => [...book.payments.values()].map((p) => paymentJson(p, origin)),
    transfer: (id) => {
      const t = book.transfers.get(id)
      return t && transferJson(t, origin)
    },
    transfers: () => [...book.transfers.values()].map((t) => transferJson(t, origin)),
    customers: () => [...book.customers.values()].map(customerJson),
    balanceCents: () => book.balanceCents,
    setBalance: (cents) => {
      book.balanceCents = cents
    },
    addWallet: () => {
      const walletId = newId.uuid()
      book.wallets.add(walletId)
      return walletId
    },
    pay: (id, paidCents) => pay(book, id, paidCents),
    markOverdue: (id) => markOverdue(book, id),
    chargeback: (id, reason) => chargeback(book, id, reason),
    completeTransfer: (id) => completeTransfer(book, id),
    failTransfer: (id, reason) => failTransfer(book, id, reason),
    loseNextResponse: (match = {}) => {
      lost.push(match)
    },
    failNextRequest: (match = {}) => {
      failures.push(match)
    },
    close: () =>
      new Promise<void>((resolve) => {
        webhooks.close()
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
  api = apiRoutes(book)
  controls = controlRoutes(fake)
  return fake
}
