// Launch day's other load: what the hosted checkout sends besides the purchase. While a buyer
// types, the page keeps their checkout session up to date (PATCH /api/checkout/sessions/{id});
// while they pay a PIX, it polls GET /api/orders/{id}/status (web/checkout/browser/). Buyers who
// never pay send both too. This measures one request of each against `npm start` on a fresh
// database: autocannon, 16 connections, spread over many sessions and pending PIX orders; the
// service's and PostgreSQL's CPU, statements and WAL flushes a request.
import autocannon from 'autocannon'
import { SERVER_URL } from '../lib/databases.ts'
import { request } from '../lib/http.ts'
import { backendCpu, walCounters } from '../lib/pg-cpu.ts'
import { benchCreator, pixBuyer } from '../lib/service.ts'
import { loopBusy, type ServiceProcess, startServiceProcess } from '../lib/service-process.ts'

export interface RequestCost {
  perSecond: number
  p99Ms: number
  errors: number
  serviceCpuUs: number
  pgCpuUs: number
  statements: number
  walSyncs: number
  loopBusy: number
}

export interface CheckoutTraffic {
  statusPoll: RequestCost
  sessionPatch: RequestCost
}

/** Pending PIX orders polled, and sessions patched, round-robin. */
const TARGETS = 500

type Shape = { method: 'GET' | 'PATCH'; path: string; body?: string }

export async function checkoutTraffic(seconds: number): Promise<CheckoutTraffic> {
  const svc = await startServiceProcess({ SMTP_URL: '' }, { split: false })
  try {
    const creator = await benchCreator(svc.url, ['write:products'], 9_700)
    const polls: Shape[] = []
    const patches: Shape[] = []
    for (let i = 0; i < TARGETS; i++) {
      const ip = `10.77.${i >> 8}.${i & 255}`
      const buyer = pixBuyer(creator.productId, i)
      const order = await request(svc.url, 'POST', '/api/checkout/create', {
        headers: { 'x-forwarded-for': ip },
        body: buyer,
      })
      const session = await request(svc.url, 'POST', '/api/checkout/sessions', {
        headers: { 'x-forwarded-for': ip },
        body: { product_id: creator.productId, email: buyer.email },
      })
      if (order.status !== 201 || session.status !== 201)
        throw new Error(`checkout traffic: ${order.status} / ${session.status}`)
      polls.push({ method: 'GET', path: `/api/orders/${order.body.order_id}/status` })
      patches.push({
        method: 'PATCH',
        path: `/api/checkout/sessions/${session.body.session_id}`,
        body: JSON.stringify({
          session_token: session.body.session_token,
          name: buyer.name,
          cpf: buyer.cpf,
          phone: buyer.phone,
        }),
      })
    }
    return {
      statusPoll: await measure(svc, polls, seconds),
      sessionPatch: await measure(svc, patches, seconds),
    }
  } finally {
    await svc.stop()
  }
}

async function measure(svc: ServiceProcess, shapes: Shape[], seconds: number) {
  let i = 0
  const run = (duration: number) =>
    autocannon({
      url: svc.url,
      connections: 16,
      duration,
      requests: [
        {
          setupRequest: (req: object) => {
            const { method, path, body } = shapes[i++ % shapes.length]!
            return body
              ? { ...req, method, path, body, headers: { 'content-type': 'application/json' } }
              : { ...req, method, path }
          },
        },
      ],
    })
  await run(2) // warm-up
  const cpu = backendCpu(SERVER_URL, svc.databaseName)
  await cpu.start()
  const walBefore = await walCounters(SERVER_URL)
  const before = await svc.stats()
  const result = await run(seconds)
  const after = await svc.stats()
  const walAfter = await walCounters(SERVER_URL)
  const pg = await cpu.stop()
  const n = result.requests.total
  return {
    perSecond: n / seconds,
    p99Ms: result.latency.p99,
    errors: result.non2xx + result.errors,
    serviceCpuUs: (after.cpuMicros - before.cpuMicros) / n,
    pgCpuUs: (pg.total * 1e6) / n,
    statements: (after.statements - before.statements) / n,
    walSyncs: (walAfter.syncs - walBefore.syncs) / n,
    loopBusy: loopBusy(before, after),
  }
}
