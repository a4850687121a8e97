// The orders list's same-run baseline: a bare Fastify route in a process of its own that sends
// one fixed body (the page the service answered) and does nothing else. Timed by the same
// one-client process as the list, its p99 is this machine's floor for one client's requests
// (scheduling, the loopback, two processes' collectors), with no database and no code of ours.
// Usage: node bare-page-server.mjs <file holding the body>; prints its port, serves until killed.
import { readFileSync } from 'node:fs'
import Fastify from 'fastify'

const body = readFileSync(process.argv[2], 'utf8')
const app = Fastify({ logger: false })
app.get('/', (_request, reply) => reply.type('application/json; charset=utf-8').send(body))
await app.listen({ host: '127.0.0.1', port: 0 })
process.stdout.write(`${app.server.address().port}\n`)
