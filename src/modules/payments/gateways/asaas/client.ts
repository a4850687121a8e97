// The HTTP client of the Asaas API v3 (docs/gateways/asaas.md): the `access_token` key, our own
// User-Agent (mandatory), JSON, a 10 s time-out. Asaas' answers become the port's three kinds:
// a value; a 4xx with Asaas' own `errors[].description` → GatewayRefused; anything else (a 5xx,
// a time-out, a lost connection, a body that is not JSON) → a plain error, the answer unknown.
// Nothing here logs a body: card data and the key never reach a log line.
import { readFileSync } from 'node:fs'
import { GatewayRefused } from '../../gateway.ts'

const TIMEOUT_MS = 10_000

export interface AsaasSettings {
  /** The API base, ".../v3" (production `https://api.asaas.com/v3`). */
  apiUrl: string
  apiKey: string
  /** What Asaas sends in `asaas-access-token` with each notification. */
  webhookToken: string
}

export type AsaasJson = Record<string, unknown>

export interface AsaasClient {
  get(path: string, query?: Record<string, string>): Promise<AsaasJson>
  post(path: string, body: AsaasJson): Promise<AsaasJson>
  delete(path: string): Promise<AsaasJson>
}

/** Asaas asks every integration to name itself; Node's fetch would otherwise say "node". */
export const USER_AGENT = `Vitrine/${readVersion()}`

function readVersion(): string {
  try {
    const pkg = JSON.parse(
      readFileSync(new URL('../../../../../package.json', import.meta.url), 'utf8'),
    )
    return typeof pkg.version === 'string' ? pkg.version : 'unknown'
  } catch {
    return 'unknown'
  }
}

/** Asaas refused the call and said why; `codes` are its error codes (`invalid_creditCard`…). */
export class AsaasRefused extends GatewayRefused {
  constructor(
    reason: string,
    blame: 'input' | 'gateway',
    readonly status: number,
    readonly codes: string[],
  ) {
    super(reason, blame)
  }
}

/** An answer we could not read: the call's outcome is unknown. */
export class AsaasUnknownAnswer extends Error {
  override name = 'AsaasUnknownAnswer'
}

export function createAsaasClient(settings: Pick<AsaasSettings, 'apiUrl' | 'apiKey'>): AsaasClient {
  const base = settings.apiUrl.replace(/\/+$/, '')

  async function call(method: string, path: string, body?: AsaasJson): Promise<AsaasJson> {
    const headers: Record<string, string> = {
      access_token: settings.apiKey,
      'user-agent': USER_AGENT,
      accept: 'application/json',
    }
    if (body !== undefined) headers['content-type'] = 'application/json'
    let response: Response
    let text: string
    try {
      response = await fetch(`${base}${path}`, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(TIMEOUT_MS),
      })
      text = await response.text()
    } catch (error) {
      // The request may have reached Asaas: the caller looks the outcome up by our reference.
      throw new AsaasUnknownAnswer(`asaas ${method} ${routeOf(path)}: no answer`, { cause: error })
    }
    const parsed = parseJson(text)
    if (response.ok) {
      if (parsed === undefined || typeof parsed !== 'object' || parsed === null)
        throw new AsaasUnknownAnswer(`asaas ${method} ${routeOf(path)}: unreadable answer`)
      return parsed as AsaasJson
    }
    const { reason, codes } = readErrors(parsed)
    const { status } = response
    // 400 and 404 are Asaas refusing what we asked (an invalid CPF, a declined card, a charge
    // that does not exist); 401 and 403 are our own setup refused (the key, a forbidden call).
    if ((status === 400 || status === 404) && reason)
      throw new AsaasRefused(reason, 'input', status, codes)
    if (status === 401 || status === 403)
      throw new AsaasRefused(
        reason ?? 'A chave de API do Asaas foi recusada.',
        'gateway',
        status,
        codes,
      )
    // 429 (rate limit), 5xx, or a 4xx without Asaas' error body: we do not know what happened.
    throw new AsaasUnknownAnswer(`asaas ${method} ${routeOf(path)}: HTTP ${response.status}`)
  }

  return {
    get: (path, query) => call('GET', query ? `${path}?${new URLSearchParams(query)}` : path),
    post: (path, body) => call('POST', path, body),
    delete: (path) => call('DELETE', path),
  }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    return undefined
  }
}

/** Asaas' `{ errors: [{ code, description }] }`: the descriptions (Portuguese) joined, the codes. */
function readErrors(body: unknown): { reason: string | null; codes: string[] } {
  const errors = typeof body === 'object' && body !== null ? (body as AsaasJson).errors : null
  if (!Array.isArray(errors)) return { reason: null, codes: [] }
  const text = (value: unknown) => (typeof value === 'string' ? value.trim() : '')
  const descriptions = errors.map((e) => text(e?.description)).filter((d) => d !== '')
  const codes = errors.map((e) => text(e?.code)).filter((c) => c !== '')
  return { reason: descriptions.length > 0 ? descriptions.join(' ') : null, codes }
}

/** A path without its query and ids, for error messages (an id is harmless, a query may not be). */
function routeOf(path: string): string {
  return path.split('?')[0]!
}
