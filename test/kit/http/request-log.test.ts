// The request log: one line per request (Fastify's "incoming request" line is dropped), with
// the method, the URL with its capabilities redacted, the status and the response time.
import { Writable } from 'node:stream'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildApp } from '../../../src/app.ts'
import { startTestService, type TestService } from '../../setup/service.ts'

let svc: TestService
beforeAll(async () => {
  svc = await startTestService()
})
afterAll(() => svc?.stop())

describe('request log', () => {
  it('writes one line per request, at its end', async () => {
    const lines: Record<string, any>[] = []
    const logStream = new Writable({
      write(chunk, _encoding, done) {
        lines.push(JSON.parse(String(chunk)))
        done()
      },
    })
    const { log: _, ...deps } = svc.deps
    const app = await buildApp(
      { ...deps, config: { ...deps.config, logLevel: 'info' } },
      { logStream },
    )
    try {
      const base = await app.listen({ port: 0, host: '127.0.0.1' })
      await fetch(`${base}/health`)
      await fetch(`${base}/checkout/nada?session=segredo&ref=abc`)
    } finally {
      await app.close()
    }
    const requests = lines.filter((line) => line.req)
    expect(requests.map((line) => [line.req.method, line.req.url, line.res?.statusCode])).toEqual([
      ['GET', '/health', 200],
      ['GET', '/checkout/nada?session=REDACTED&ref=abc', 404],
    ])
    expect(requests.every((line) => typeof line.responseTime === 'number')).toBe(true)
    expect(lines.some((line) => line.msg === 'incoming request')).toBe(false)
  })
})
