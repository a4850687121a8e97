// The orders list's same-run baseline: a bare Fastify route in a process of its own that sends
// one fixed body (the page the service answered) and does nothing else. Timed by the same
// one-client process as the list, its p99 is this machine's floor for one client's requests
// (scheduling, the loopback, two processes' collectors), with no database and no code of ours.
// Usage: BARE_PAGE_BODY=<the body> node bare-page-server.mjs; prints its port, serves until
// killed.
import Fastify from 'fastify'

const body = process.env.BARE_PAGE_BODY ?? ''
const app = Fastify({ logger: false })
app.get('/', (_request, reply) => reply.type('application/json; charset=utf-8').send(body))
await app.listen({ host: '127.0.0.1', port: 0 })
process.stdout.write(`${app.server.address().port}\n`)
