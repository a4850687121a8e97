// A real HTTP server standing in for a creator's webhook endpoint.
import { createServer, type IncomingMessage } from 'node:http'
import type { AddressInfo } from 'node:net'

export interface Received {
  headers: IncomingMessage['headers']
  raw: string
  body: any
}

export async function startReceiver(answer: (req: Received) => number = () => 200) {
  const received: Received[] = []
  const server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c) => chunks.push(c))
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8')
      const entry = { headers: req.headers, raw, body: JSON.parse(raw || 'null') }
      received.push(entry)
      res.statusCode = answer(entry)
      res.end('ok')
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}
