// Plumbing shared by the fake's routes: Mercado Pago's error body, JSON answers, body reading.
import type { IncomingMessage, ServerResponse } from 'node:http'

export interface Cause {
  code: number | string
  description: string
}

/** Mercado Pago's error body: `{ message, error, status, cause: [{ code, description, data }] }`. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly error: string,
    message: string,
    readonly cause_: Cause[] = [],
  ) {
    super(message)
  }

  get body() {
    return {
      message: this.message,
      error: this.error,
      status: this.status,
      cause: this.cause_.map((c) => ({ ...c, data: null })),
    }
  }
}

/** `code` is Mercado Pago's cause code, or a label of the fake's own where none is documented. */
export const badRequest = (code: number | string, description: string, message = description) =>
  new ApiError(400, 'bad_request', message, [{ code, description }])

export const notFound = (what: string) =>
  new ApiError(404, 'not_found', `${what} not found`, [
    { code: 2000, description: `${what} not found` },
  ])

/** Browsers call the card-token and payment-method routes from the checkout's own origin. */
export const CORS_HEADERS = {
  'access-control-allow-origin': '*',
  'access-control-allow-methods': 'GET, POST, PUT, OPTIONS',
  'access-control-allow-headers': 'authorization, content-type, x-idempotency-key',
}

export function sendJson(res: ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...CORS_HEADERS })
  res.end(JSON.stringify(body))
}

export function sendText(res: ServerResponse, status: number, type: string, text: string) {
  res.writeHead(status, { 'content-type': `${type}; charset=utf-8`, ...CORS_HEADERS })
  res.end(text)
}

const MAX_BODY_BYTES = 1_000_000

export function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    let size = 0
    req.on('data', (chunk: Buffer) => {
      size += chunk.length
      if (size > MAX_BODY_BYTES) reject(new ApiError(413, 'payload_too_large', 'body too large'))
      else chunks.push(chunk)
    })
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')))
    req.on('error', reject)
  })
}

/** The JSON object of a POST/PUT. An empty body is `{}` (the SDK sends none for a full refund). */
export function parseJsonObject(raw: string, contentType: string | undefined): Record<string, any> {
  if (raw.trim() === '') return {}
  if (!/^application\/json\b/i.test(contentType ?? '')) {
    throw new ApiError(400, 'bad_request', 'Content-Type must be application/json')
  }
  let parsed: unknown
  try {
    parsed = JSON.parse(raw)
  } catch {
    throw new ApiError(400, 'bad_request', 'Invalid JSON body')
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new ApiError(400, 'bad_request', 'The body must be a JSON object')
  }
  return parsed as Record<string, any>
}

/** Mercado Pago's date style, in Brasília time: `2026-01-15T10:30:00.000-03:00`. */
export function mpDate(date: Date): string {
  const local = new Date(date.getTime() - 3 * 3_600_000)
  return `${local.toISOString().slice(0, -1)}-03:00`
}
