// A graceful stop (SIGTERM → `close()`) lets the requests under way finish before the workers
// stop, so what those requests queued goes out before the process exits. The other way round,
// a checkout's access mail written as the workers stopped waited for a later worker's poll (and
// one born leased to the stopped worker, for its lease: 10 minutes).
import { describe, expect, it } from 'vitest'
import { signupCreator } from '../setup/actors.ts'
import { checkout, createProduct } from '../setup/purchase.ts'
import { engine, startTestService } from '../setup/service.ts'
import { startSmtpSink } from '../setup/smtp-sink.ts'

describe(`a graceful stop (${engine})`, () => {
  it('sends the access mail of a checkout under way when it began', async () => {
    const sink = await startSmtpSink()
    // Polls a minute apart: only the hand-off of a live worker sends the mail within the test.
    const svc = await startTestService({ WORKER_POLL_MS: '1m', SMTP_URL: sink.url })
    let stopping: Promise<void> | undefined
    try {
      const creator = await signupCreator(svc.api)
      const product = await createProduct(svc.api, await creator.key(['write:products']))
      const email = `parada-${Date.now()}@example.com`
      // The stop begins once the checkout's request is in the server's hands.
      svc.app.server.once('request', () => {
        stopping = svc.stop()
      })
      const res = await checkout(svc.api, product.id, { email })
      expect(res.status).toBe(201)
      await stopping
      expect(sink.received.filter((raw) => raw.includes(`To: ${email}`))).toHaveLength(1)
    } finally {
      await (stopping ?? svc.stop())
      await sink.close()
    }
  })
})
