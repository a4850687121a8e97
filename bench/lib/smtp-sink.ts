// The launch bench's mail server: real SMTP over TCP that accepts every message, answering
// pipelined commands together as RFC 2920 asks a server to (Postfix does): the replies to one
// chunk of commands go out in one write. The tests' sink (test/setup/smtp-sink.ts, smtp-server)
// writes each reply on its own, so a client that pipelines MAIL, RCPT and DATA reads up to three
// segments a message: at a launch's three mails a purchase, more wake-ups in the service, and
// CPU in the bench's own process, than a mail server on another machine would cost them.
import { type AddressInfo, createServer, type Socket } from 'node:net'

const END_OF_DATA = '\r\n.\r\n'

function converse(socket: Socket) {
  let buffered = ''
  let inData = false
  socket.setNoDelay(true)
  socket.write('220 vitrine-bench ESMTP\r\n')
  socket.on('data', (chunk: Buffer) => {
    buffered += chunk.toString('latin1')
    const replies: string[] = []
    for (;;) {
      if (inData) {
        // No line of the message is a lone dot: the client doubles a leading one.
        const end = buffered.indexOf(END_OF_DATA)
        if (end === -1) break
        buffered = buffered.slice(end + END_OF_DATA.length)
        inData = false
        replies.push('250 2.0.0 queued')
        continue
      }
      const end = buffered.indexOf('\r\n')
      if (end === -1) break
      const line = buffered.slice(0, end)
      buffered = buffered.slice(end + 2)
      const verb = line.slice(0, 4).toUpperCase()
      if (verb === 'EHLO')
        replies.push('250-vitrine-bench', '250-PIPELINING', '250-8BITMIME', '250 SMTPUTF8')
      else if (verb === 'DATA') {
        inData = true
        // The line break that ended DATA begins the search for the end: an empty message is
        // a lone dot.
        buffered = `\r\n${buffered}`
        replies.push('354 go ahead')
      } else if (verb === 'QUIT') {
        socket.end('221 bye\r\n')
        return
      } else replies.push('250 ok')
    }
    if (replies.length) socket.write(`${replies.join('\r\n')}\r\n`)
  })
  socket.on('error', () => socket.destroy())
}

export async function startBenchSmtpSink() {
  const sockets = new Set<Socket>()
  const server = createServer((socket) => {
    sockets.add(socket)
    socket.on('close', () => sockets.delete(socket))
    converse(socket)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `smtp://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy()
        server.close(() => resolve())
      }),
  }
}
