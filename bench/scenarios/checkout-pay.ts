// Scenario 1: a buyer's whole purchase — POST /api/checkout/create (PIX) then the sandbox pay
// control, whose signed callback runs the paid-order transaction — by N concurrent buyers.
import { request } from '../lib/http.ts'
import { Latency } from '../lib/latency.ts'
import { benchCreator, pixBuyer, startBenchService } from '../lib/service.ts'

export interface CheckoutPayResult {
  engine: 'pglite' | 'postgres'
  purchases: number
  seconds: number
  perSecond: number
  purchase: Latency
  create: Latency
  pay: Latency
  errors: number
}

export async function checkoutPay(opts: {
  engine: 'pglite' | 'postgres'
  seconds: number
  buyers: number
}): Promise<CheckoutPayResult> {
  const { service, stop } = await startBenchService(opts.engine)
  const url = service.url
  const result: CheckoutPayResult = {
    engine: opts.engine,
    purchases: 0,
    seconds: opts.seconds,
    perSecond: 0,
    purchase: new Latency(),
    create: new Latency(),
    pay: new Latency(),
    errors: 0,
  }
  try {
    const { productId } = await benchCreator(url, ['write:products'], 9790)
    let n = 0
    const buyOnce = async (record: boolean) => {
      const started = performance.now()
      const created = await request(url, 'POST', '/api/checkout/create', {
        body: pixBuyer(productId, n++),
      })
      const createdAt = performance.now()
      const paid =
        created.status === 201
          ? await request(url, 'POST', `/sandbox/charges/${created.body.charge_id}/pay`)
          : null
      const done = performance.now()
      if (created.status !== 201 || paid?.status !== 200 || paid.body.callback_status !== 200) {
        result.errors++
        return
      }
      if (!record) return
      result.purchases++
      result.create.add(createdAt - started)
      result.pay.add(done - createdAt)
      result.purchase.add(done - started)
    }
    const loop = async (until: number, record: boolean) => {
      while (performance.now() < until) await buyOnce(record)
    }
    const warmUpEnd = performance.now() + 2_000
    await Promise.all(Array.from({ length: opts.buyers }, () => loop(warmUpEnd, false)))
    const started = performance.now()
    const end = started + opts.seconds * 1000
    await Promise.all(Array.from({ length: opts.buyers }, () => loop(end, true)))
    result.perSecond = result.purchases / ((performance.now() - started) / 1000)
    return result
  } finally {
    await stop()
  }
}
