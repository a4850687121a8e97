// Scenario 1: a buyer's whole purchase — POST /api/checkout/create (PIX) then the sandbox pay
// control, whose signed callback runs the paid-order transaction — by N concurrent buyers.
import { randomBytes } from 'node:crypto'
import { loadConfig } from '../../src/config.ts'
import { startService } from '../../src/service.ts'
import { openBenchDatabase } from '../lib/databases.ts'
import { request } from '../lib/http.ts'
import { Latency } from '../lib/latency.ts'

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

async function setupCreator(url: string): Promise<string> {
  const email = `bench-${randomBytes(4).toString('hex')}@example.com`
  const signup = await request(url, 'POST', '/api/auth/signup', {
    body: { name: 'Bench', email, password: 'bench-password-1' },
  })
  const cookie = String(signup.headers['set-cookie']?.map((c) => c.split(';')[0]).join('; '))
  const key = await request(url, 'POST', `/api/accounts/${signup.body.account.id}/api-keys`, {
    headers: { cookie, 'x-csrf-token': signup.body.csrf_token },
    body: { name: 'bench', scopes: ['write:products'] },
  })
  const product = await request(url, 'POST', '/api/v1/products', {
    headers: { authorization: `Bearer ${key.body.key}` },
    body: {
      name: 'Bench',
      slug: `bench-${randomBytes(4).toString('hex')}`,
      billing: 'one_time',
      plans: [{ name: 'x', price: 97.9 }],
    },
  })
  return product.body.data.id
}

export async function checkoutPay(opts: {
  engine: 'pglite' | 'postgres'
  seconds: number
  buyers: number
}): Promise<CheckoutPayResult> {
  const db = await openBenchDatabase(opts.engine)
  const config = loadConfig({
    PORT: '0',
    HOST: '127.0.0.1',
    SEED_DEMO: '0',
    LOG_LEVEL: 'silent',
    APP_SECRET: randomBytes(32).toString('hex'),
    WORKER_POLL_MS: '50',
  })
  const service = await startService(config, { database: db.database, logger: false })
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
    const productId = await setupCreator(url)
    let n = 0
    const buyOnce = async (record: boolean) => {
      const started = performance.now()
      const created = await request(url, 'POST', '/api/checkout/create', {
        body: {
          product_id: productId,
          name: 'Comprador Bench',
          email: `buyer-${n++}-${randomBytes(3).toString('hex')}@example.com`,
          cpf: '529.982.247-25',
          phone: '(11) 98765-4321',
          payment_method: 'pix',
        },
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
    await service.close()
    await db.drop()
  }
}
