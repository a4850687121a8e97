// A tiny local webhook receiver for the README tour: prints each event and, given the endpoint
// secret, checks its x-service-signature. Usage: npm run receiver [-- <secret>]
import { createHmac, timingSafeEqual } from 'node:crypto'
import { createServer } from 'node:http'

const secret = process.argv[2] ?? process.env.WEBHOOK_SECRET
const port = Number(process.env.RECEIVER_PORT ?? 4000)

createServer((req, res) => {
  const chunks: Buffer[] = []
  req.on('data', (chunk) => chunks.push(chunk))
  req.on('end', () => {
    const raw = Buffer.concat(chunks)
    let verdict = 'not checked (no secret given)'
    if (secret) {
      const expected = Buffer.from(
        `sha256=${createHmac('sha256', secret).update(raw).digest('hex')}`,
      )
      const sent = Buffer.from(String(req.headers['x-service-signature'] ?? ''))
      verdict =
        sent.length === expected.length && timingSafeEqual(sent, expected) ? 'valid' : 'INVALID'
    }
    const body = JSON.parse(raw.toString('utf8') || '{}')
    console.log(
      `${body.event} (${body.id}) — signature ${verdict}\n${JSON.stringify(body.data, null, 2)}\n`,
    )
    res.writeHead(secret && verdict === 'INVALID' ? 401 : 200).end()
  })
}).listen(port, '127.0.0.1', () =>
  console.log(`Webhook receiver on http://127.0.0.1:${port}/hooks`),
)
