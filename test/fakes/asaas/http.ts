// HTTP plumbing of the fake: bodies, answers, routing, the checks Asaas makes on every call, and
// matching the faults a test injects.
import type { IncomingMessage, ServerResponse } from 'node:http'
import { fail } from './errors.ts'
import type { Route } from './routes.ts'

export type Json = Record<string, unknown>

/** Which API calls a fault applies to: method and/or path under /v3 (e.g. "/payments"). */
export interface RequestMatch {
  method?: string | undefined
  path?: string | RegExp | undefined
}

function matches(match: RequestMatch, method: string, path: string): boolean {
  const { method: m, path: p } = match
  if (m !== undefined && m.toUpperCase() !== method) return false
  if (p === undefined) return true
  return typeof p === 'string' ? p === path : p.test(path)
}

/** Takes (and forgets) the first fault matching a call. */
export function take<T extends RequestMatch>(
  faults: T[],
  method: string,
  path: string,
): T | undefined {
  const at = faults.findIndex((f) => matches(f, method, path))
  return at === -1 ? undefined : faults.splice(at, 1)[0]
}

export function maskCard(body: unknown): unknown {
  if (typeof body !== 'object' || body === null) return body
  const copy = structuredClone(body) as Json
  const card = copy.creditCard as Json | undefined
  if (card && typeof card.number === 'string') card.number = `************${card.number.slice(-4)}`
  if (card && 'ccv' in card) card.ccv = '***'
  return copy
}

export function errorsBody(code: string, description: string) {
  return { errors: [{ code, description }] }
}

export function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => resolve(Buffer.concat(chunks)))
    req.on('error', reject)
  })
}

export function send(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' })
  res.end(JSON.stringify(body ?? { ok: true }))
}

export async function route(
  routes: Route[],
  method: string,
  path: string,
  query: URLSearchParams,
  body: Json,
) {
  for (const [m, pattern, handler] of routes) {
    const found = m === method ? pattern.exec(path) : null
    if (found) return { status: 200, body: await handler({ params: found.slice(1), query, body }) }
  }
  return { status: 404, body: errorsBody('not_found', 'O endpoint solicitado não existe.') }
}

/** The call's JSON object, after the checks Asaas makes on the key, headers and body. */
export function readRequest(
  req: IncomingMessage,
  method: string,
  raw: Buffer,
  apiKey: string,
): Json {
  const token = req.headers.access_token
  if (token === undefined || token === '')
    fail(401, 'access_token_not_found', "O cabeçalho 'access_token' é obrigatório.")
  if (token !== apiKey) fail(401, 'invalid_access_token', 'A chave de API é inválida.')
  if (!req.headers['user-agent']) fail(400, 'invalid_user_agent', 'Informe o cabeçalho User-Agent.')
  if (raw.length === 0) return {}
  // Docs: a 403 on a GET means a body was sent with it.
  if (method === 'GET') fail(403, 'forbidden', 'Requisições GET não aceitam corpo.')
  if (!String(req.headers['content-type']).includes('application/json'))
    fail(400, 'invalid_object', 'Envie Content-Type: application/json.')
  const body = safeParse(raw)
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    fail(400, 'invalid_object', 'O corpo deve ser um objeto JSON válido.')
  return body as Json
}

export function safeParse(raw: Buffer): unknown {
  try {
    return JSON.parse(raw.toString('utf8'))
  } catch {
    return raw.toString('utf8')
  }
}
