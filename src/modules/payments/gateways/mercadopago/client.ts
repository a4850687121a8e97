// A small HTTP client for Mercado Pago's API (docs/gateways/mercadopago.md): the access token as
// a Bearer header, JSON both ways, a 10 s time-out, and the three kinds of answer of the port —
// a value, `GatewayRefused` (a 4xx with Mercado Pago's reason), or a plain throw (unknown).
import { GatewayRefused } from '../../gateway.ts'

export const MP_TIMEOUT_MS = 10_000

export interface MercadoPagoClientOptions {
  apiUrl: string
  accessToken: string
  timeoutMs?: number | undefined
}

export interface MpRequest {
  method: 'GET' | 'POST' | 'PUT'
  path: string
  body?: unknown
  /** Mandatory on every POST that creates (payments, refunds): a retry is the same request. */
  idempotencyKey?: string | undefined
  headers?: Record<string, string> | undefined
}

/** Thrown for a 404: the caller decides whether "not found" is an answer (a lookup) or not. */
export class MpNotFound extends Error {
  constructor(readonly path: string) {
    super(`Mercado Pago has no ${path}`)
    this.name = 'MpNotFound'
  }
}

export type MercadoPagoClient = <T>(request: MpRequest) => Promise<T>

export function createMercadoPagoClient(opts: MercadoPagoClientOptions): MercadoPagoClient {
  const base = opts.apiUrl.replace(/\/+$/, '')
  const timeoutMs = opts.timeoutMs ?? MP_TIMEOUT_MS
  return async <T>(req: MpRequest): Promise<T> => {
    const headers: Record<string, string> = {
      authorization: `Bearer ${opts.accessToken}`,
      accept: 'application/json',
      ...req.headers,
    }
    if (req.body !== undefined) headers['content-type'] = 'application/json'
    if (req.idempotencyKey) headers['x-idempotency-key'] = req.idempotencyKey
    // A network error or the time-out rejects here: the answer is unknown, and that is the throw.
    const response = await fetch(`${base}${req.path}`, {
      method: req.method,
      headers,
      body: req.body === undefined ? undefined : JSON.stringify(req.body),
      redirect: 'error',
      signal: AbortSignal.timeout(timeoutMs),
    })
    const text = await response.text()
    if (response.ok) return parseJson(text, req) as T
    if (response.status === 404) throw new MpNotFound(req.path)
    if (response.status >= 400 && response.status < 500 && response.status !== 408) {
      throw refusal(response.status, text)
    }
    // 5xx, 408 and anything stranger: Mercado Pago may or may not have acted.
    throw new Error(`Mercado Pago answered ${response.status} to ${req.method} ${req.path}`)
  }
}

function parseJson(text: string, req: MpRequest): unknown {
  if (text.trim() === '') return null
  try {
    return JSON.parse(text)
  } catch {
    throw new Error(`Mercado Pago answered ${req.method} ${req.path} with a body that is not JSON`)
  }
}

interface MpErrorBody {
  message?: unknown
  error?: unknown
  cause?: Array<{ code?: unknown; description?: unknown }> | unknown
}

/**
 * A 4xx: Mercado Pago did nothing and said why. 401/403 mean our credentials or account are
 * refused (the gateway's setup, 502); 429 is a refusal of the moment (also the gateway's);
 * any other 4xx refuses what we sent (400).
 */
export function refusal(status: number, text: string): GatewayRefused {
  const blame = status === 401 || status === 403 || status === 429 ? 'gateway' : 'input'
  return new GatewayRefused(reasonOf(status, text), blame)
}

/** Mercado Pago's cause codes a buyer can act on, in their words; others keep MP's description. */
const CAUSES_PT: Record<string, string> = {
  '2067': 'CPF/CNPJ inválido',
  '4050': 'e-mail inválido',
  '109': 'número de parcelas não aceito para este cartão',
  '2006': 'os dados do cartão expiraram; digite o cartão de novo',
  '3003': 'os dados do cartão expiraram; digite o cartão de novo',
  diff_param_bins: 'a bandeira informada não corresponde ao cartão',
  '4040': 'valor de estorno inválido',
  '4041': 'valor de estorno inválido',
  invalid_refund_amount: 'o valor excede o que resta a estornar',
  '3005': 'o pagamento não está em um estado que permita esta operação',
  '2063': 'o pagamento não está em um estado que permita esta operação',
  '2024': 'o pagamento é antigo demais para ser estornado',
  '15016': 'o pagamento é antigo demais para ser estornado',
  '3024': 'este pagamento não aceita estorno parcial',
  missing_payer_address: 'endereço do pagador incompleto',
}

function reasonOf(status: number, text: string): string {
  let body: MpErrorBody = {}
  try {
    body = (JSON.parse(text) as MpErrorBody | null) ?? {}
  } catch {}
  const causes = Array.isArray(body.cause) ? body.cause : []
  const described = causes
    .map(
      (c) =>
        CAUSES_PT[String(c?.code)] ??
        (typeof c?.description === 'string' ? c.description.trim() : ''),
    )
    .filter(Boolean)
  const detail =
    described.length > 0
      ? [...new Set(described)].join('; ')
      : typeof body.message === 'string' && body.message.trim()
        ? body.message.trim()
        : `HTTP ${status}`
  if (status === 401 || status === 403) {
    return `O Mercado Pago recusou as credenciais da plataforma (${detail})`
  }
  if (status === 429) return `O Mercado Pago está limitando as requisições (${detail})`
  return `O Mercado Pago recusou a operação: ${detail}`
}
