// Starts the whole service: database, migrations, HTTP, seed data and background workers.
import type { AddressInfo } from 'node:net'
import { buildApp } from './app.ts'
import { bindUrlsToPort, type Config } from './config.ts'
import type { Deps } from './deps.ts'
import { type Clock, databaseClock, systemClock } from './kit/clock.ts'
import { type Database, migrate, openDatabase } from './kit/db.ts'
import { resolveAppSecret } from './kit/secrets.ts'
import { createMailHandoff } from './modules/email/handoff.ts'
import { createGateway, createPayouts } from './modules/payments/gateways/index.ts'
import { createDeliveryHandoff } from './modules/webhooks/handoff.ts'
import { seed } from './seed.ts'
import { startWorkers, type Workers } from './workers.ts'

export interface RunningService {
  deps: Deps
  app: Awaited<ReturnType<typeof buildApp>>
  url: string
  workers: Workers | null
  seeded: Awaited<ReturnType<typeof seed>>
  close(): Promise<void>
}

export async function startService(
  config: Config,
  opts: { database?: Database; clock?: Clock; logger?: boolean } = {},
): Promise<RunningService> {
  const database =
    opts.database ??
    (await openDatabase({
      databaseUrl: config.databaseUrl,
      dataDir: config.dataDir,
      preparedStatements: config.preparedStatements,
      poolSize: config.databasePoolSize,
    }))
  await migrate(database)
  // One time for every process of the deployment (the sandbox can move it); in production the
  // machine's own time, so an offset a demo once stored in the database is never read.
  const clock =
    opts.clock ??
    (config.production
      ? systemClock()
      : await databaseClock(database.db, Math.max(config.workerPollMs, 1_000)))
  const appSecret = await resolveAppSecret(database.db, config)
  const base = {
    config,
    database,
    db: database.db,
    clock,
    appSecret,
    deliveryHandoff: createDeliveryHandoff(),
    mailHandoff: createMailHandoff(),
  }
  const gateway = createGateway(base)
  const payouts = createPayouts(base)
  const app = await buildApp(
    { ...base, gateway, payouts },
    opts.logger === false ? { logger: false } : {},
  )
  const deps: Deps = { ...base, gateway, payouts, log: app.log }

  await app.listen({ port: config.port, host: config.host })
  bindUrlsToPort(config, (app.server.address() as AddressInfo).port)
  const seeded = await seed(deps)
  const workers = config.role === 'api' ? null : startWorkers(deps)

  return {
    deps,
    app,
    url: config.baseUrl,
    workers,
    seeded,
    async close() {
      // Requests first: what the ones under way queue for the workers (a checkout's access
      // mail, a sale's webhooks) is handed to workers still running, which send it as they stop.
      await closeHttp(app, config.shutdownGraceMs)
      await workers?.stop()
      clock.stop?.()
      if (!opts.database) await database.close()
    },
  }
}

/**
 * Stops accepting connections and waits for the requests under way, but no longer than
 * `graceMs`: Node's close also waits for a client that sent half a request (until its
 * 60-second headers time-out), which must not hold a deploy or a test's teardown.
 */
async function closeHttp(app: RunningService['app'], graceMs: number) {
  const cut = setTimeout(() => app.server.closeAllConnections(), graceMs)
  try {
    await app.close()
  } finally {
    clearTimeout(cut)
  }
}
