// A real SMTP server on a free port (smtp-server), for the mail tests. `answer` decides, per
// message, whether it is accepted, refused with a temporary error, or left hanging unanswered;
// a promise of a verdict holds the answer until it settles.
import type { AddressInfo } from 'node:net'
import { SMTPServer } from 'smtp-server'

export type SinkAnswer = 'accept' | 'refuse' | 'stall'

export async function startSmtpSink(
  answer: (raw: string) => SinkAnswer | Promise<SinkAnswer> = () => 'accept',
) {
  const received: string[] = []
  let stalled = 0
  let connections = 0
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onConnect(_session, callback) {
      connections++
      callback()
    },
    onData(stream, _session, callback) {
      let raw = ''
      stream.on('data', (chunk: Buffer) => {
        raw += chunk.toString('utf8')
      })
      stream.on('end', async () => {
        const verdict = await answer(raw)
        if (verdict === 'stall') return void stalled++
        if (verdict === 'refuse') return callback(new Error('451 try again later'))
        received.push(raw)
        callback()
      })
    },
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.server.address() as AddressInfo
  return {
    url: `smtp://127.0.0.1:${port}`,
    /** Raw messages accepted, in order. */
    received,
    stalled: () => stalled,
    /** SMTP connections opened so far. */
    connections: () => connections,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}
