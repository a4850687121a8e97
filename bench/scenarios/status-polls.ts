// Launch day's hidden load: buyers waiting on a PIX. The hosted checkout polls
// GET /api/orders/{id}/status while its buyer pays (web/checkout/browser/follow-order.ts), and a
// launch has many more buyers waiting than buying at any moment. This measures what one poll
// costs: `npm start` on a fresh database, pending PIX orders, 16 connections of autocannon
// polling them round-robin, the service's and PostgreSQL's CPU per poll.
import autocannon from 'autocannon'
import { SERVER_URL } from '../lib/databases.ts'
import { request } from '../lib/http.ts'
import { backendCpu } from '../lib/pg-cpu.ts'
import { benchCreator, pixBuyer } from '../lib/service.ts'
import { startServiceProcess } from '../lib/service-process.ts'

export interface StatusPolls {
  perSecond: number
  p99Ms: number
  errors: number
  serviceCpuPerPollUs: number
  pgCpuPerPollUs: number
  statementsPerPoll: number
  loopBusy: number
}

const PENDING_ORDERS = 500

export async function statusPolls(seconds: number): Promise<StatusPolls> {
  const svc = await startServiceProcess({ SMTP_URL: '' }, { split: false })
  try {
    const creator = await benchCreator(svc.url, ['write:products'], 9_700)
    const ids: string[] = []
    for (let i = 0; i < PENDING_ORDERS; i++) {
      const created = await request(svc.url, 'POST', '/api/checkout/create', {
        headers: { 'x-forwarded-for': `10.77.${i >> 8}.${i & 255}` },
        body: pixBuyer(creator.productId, i),
      })
      if (created.status !== 201) throw new Error(`status polls: checkout ${created.status}`)
      ids.push(created.body.order_id)
    }
    const poll = (run: number) =>
      autocannon({
        url: svc.url,
        connections: 16,
        duration: run,
        requests: [
          {
            setupRequest: (req: object) => ({
              ...req,
              path: `/api/orders/${ids[Math.floor(Math.random() * ids.length)]}/status`,
            }),
          },
        ],
      })
    await poll(2) // warm-up
    const cpu = backendCpu(SERVER_URL, svc.databaseName)
    await cpu.start()
    const before = await svc.stats()
    const result = await poll(seconds)
    const after = await svc.stats()
    const pg = await cpu.stop()
    const polls = result.requests.total
    const active = after.loopActiveMs - before.loopActiveMs
    return {
      perSecond: polls / seconds,
      p99Ms: result.latency.p99,
      errors: result.non2xx + result.errors,
      serviceCpuPerPollUs: (after.cpuMicros - before.cpuMicros) / polls,
      pgCpuPerPollUs: (pg.total * 1e6) / polls,
      statementsPerPoll: (after.statements - before.statements) / polls,
      loopBusy: active / (active + after.loopIdleMs - before.loopIdleMs),
    }
  } finally {
    await svc.stop()
  }
}
