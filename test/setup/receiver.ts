// A real HTTP server standing in for a creator's webhook endpoint.
import { createServer, type IncomingMessage } from 'node:http'
import type { AddressInfo } from 'node:net'

export interface Received {
  headers: IncomingMessage['headers']
  raw: string
  body: any
  /** When the request arrived (performance.now()). */
  at: number
}

/** A status code, or a status with headers, a body and a delay (or a hold) before answering. */
export type Answer =
  | number
  | {
      status: number
      headers?: Record<string, string>
      delayMs?: number
      /** Answers once this settles (after `delayMs`). */
      hold?: Promise<unknown>
      body?: string
    }

export async function startReceiver(
  answer: (req: Received) => Answer = () => 200,
  opts: { host?: string } = {},
) {
  const host = opts.host ?? '127.0.0.1'
  const received: Received[] = []
  const server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c) => chunks.push(c))
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8')
      const entry = {
        headers: req.headers,
        raw,
        body: JSON.parse(raw || 'null'),
        at: performance.now(),
      }
      received.push(entry)
      const reply = answer(entry)
      const {
        status,
        headers = {},
        delayMs = 0,
        hold,
        body = 'ok',
      } = typeof reply === 'number' ? { status: reply } : reply
      setTimeout(async () => {
        await hold
        res.writeHead(status, headers)
        res.end(body)
      }, delayMs)
    })
  })
  await new Promise<void>((resolve) => server.listen(0, host, resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${port}/hooks`,
    port,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}
