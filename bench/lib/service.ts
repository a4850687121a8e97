// The real service in-process over a fresh bench database, and a creator made through its API.
import { randomBytes } from 'node:crypto'
import { loadConfig } from '../../src/config.ts'
import { startService } from '../../src/service.ts'
import { openBenchDatabase } from './databases.ts'
import { request } from './http.ts'

export async function startBenchService(
  engine: 'pglite' | 'postgres',
  env: Record<string, string> = {},
) {
  const db = await openBenchDatabase(engine)
  const config = loadConfig({
    PORT: '0',
    HOST: '127.0.0.1',
    SEED_DEMO: '0',
    LOG_LEVEL: 'silent',
    APP_SECRET: randomBytes(32).toString('hex'),
    WORKER_POLL_MS: '50',
    // Every bench buyer comes from 127.0.0.1: the per-IP limit would measure itself.
    CHECKOUT_CREATES_PER_MINUTE: '1000000000',
    ...env,
  })
  const service = await startService(config, { database: db.database, logger: false })
  return {
    service,
    /** The PostgreSQL database's URL, for worker processes (undefined on PGlite). */
    databaseUrl: db.url,
    async stop() {
      await service.close()
      await db.drop()
    },
  }
}

/** The checkout body of a new buyer paying `productId` by PIX: `n` keeps its e-mail unique. */
export function pixBuyer(productId: string, n: number) {
  return {
    product_id: productId,
    name: 'Comprador Bench',
    email: `buyer-${n}-${randomBytes(3).toString('hex')}@example.com`,
    cpf: '529.982.247-25',
    phone: '(11) 98765-4321',
    payment_method: 'pix',
  }
}

/** Sign-up, an API key with `scopes`, and a one-plan product of `priceCents`. */
export async function benchCreator(url: string, scopes: string[], priceCents: number) {
  const email = `bench-${randomBytes(4).toString('hex')}@example.com`
  const signup = await request(url, 'POST', '/api/auth/signup', {
    body: { name: 'Bench', email, password: 'bench-password-1' },
    // Sign-ups are limited per IP (10 an hour) and scenarios make up to 50 creators: each comes
    // from its own loopback address (all of 127.0.0.0/8 is loopback on Linux).
    localAddress: `127.${randomBytes(1)[0]}.${randomBytes(1)[0]}.${1 + (randomBytes(1)[0]! % 254)}`,
  })
  if (signup.status !== 201)
    throw new Error(`sign-up: ${signup.status} ${JSON.stringify(signup.body)}`)
  const cookie = String(signup.headers['set-cookie']?.map((c) => c.split(';')[0]).join('; '))
  const accountId = signup.body.account.id as string
  const key = await request(url, 'POST', `/api/accounts/${accountId}/api-keys`, {
    headers: { cookie, 'x-csrf-token': signup.body.csrf_token },
    body: { name: 'bench', scopes },
  })
  const product = await request(url, 'POST', '/api/v1/products', {
    headers: { authorization: `Bearer ${key.body.key}` },
    body: {
      name: 'Bench',
      slug: `bench-${randomBytes(4).toString('hex')}`,
      billing: 'one_time',
      plans: [{ name: 'x', price: priceCents / 100 }],
    },
  })
  return {
    accountId,
    /** The creator's session cookies (`name=value; …`), for pages. */
    cookie,
    userId: signup.body.user.id as string,
    key: key.body.key as string,
    productId: product.body.data.id as string,
    planId: product.body.data.plans[0].id as string,
  }
}
