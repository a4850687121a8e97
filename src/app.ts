import cookie from '@fastify/cookie'
import Fastify, { type FastifyReply, type FastifyRequest, LogController } from 'fastify'
import {
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod'
import pino from 'pino'
import type { Deps } from './deps.ts'
import { redactCapabilities } from './kit/http/capability-urls.ts'
import { registerErrorHandler } from './kit/http/error-handler.ts'
import { registerGuards } from './kit/http/guard.ts'
import { registerIdempotency } from './kit/http/idempotency.ts'
import { registerInputHygiene } from './kit/http/input-hygiene.ts'
import { registerLoadShedding } from './kit/http/load-shedding.ts'
import { openapiDocument, registerOpenapi } from './kit/http/openapi.ts'
import { registerSecurityHeaders } from './kit/http/security-headers.ts'
import { SCOPES } from './modules/accounts/schema.ts'
import { routesFor } from './routes.ts'
import { OVERLOADED_PAGE } from './web/overloaded.ts'

/** One line per request, at its end (Fastify writes two: "incoming request" and this one). */
class OneLinePerRequest extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(
    error: Error | null,
    request: FastifyRequest,
    reply: FastifyReply,
  ): void {
    if (this.isLogDisabled(request)) return
    const line = { req: request, res: reply, responseTime: reply.elapsedTime }
    if (error) reply.log.error({ ...line, err: error }, 'request errored')
    else reply.log.info(line, 'request completed')
  }
}

/** The HTTP service: every module's routes over one Fastify instance. No listening here. */
export async function buildApp(
  deps: Omit<Deps, 'log'>,
  opts: { logger?: boolean; logStream?: { write(line: string): void } } = {},
) {
  const logging = opts.logger !== false
  const app = Fastify({
    logger: logging && {
      level: deps.config.logLevel,
      // Lines are written off the request path (sonic-boom, flushed at exit) in batches of
      // 4 KiB or every second, whichever comes first: one write a line cost a launch a write
      // and a thread pool hand-off per purchase (BENCHMARKS.md, 2026-11-27, fourteenth
      // session). A given stream (tests) is written as it is.
      stream:
        opts.logStream ??
        pino.destination({ dest: 1, sync: false, minLength: 4096, periodicFlush: 1000 }),
      // Fastify's own request fields, with the URL's secrets removed.
      serializers: {
        req: (req: FastifyRequest) => ({
          method: req.method,
          url: redactCapabilities(req.url),
          host: req.host,
          remoteAddress: req.ip,
          remotePort: req.socket?.remotePort,
        }),
      },
      redact: ['req.headers.authorization', 'req.headers.cookie', 'req.headers["x-csrf-token"]'],
    },
    logController: new OneLinePerRequest(),
    bodyLimit: 1024 * 1024,
    trustProxy: deps.config.trustProxy,
    routerOptions: { ignoreTrailingSlash: true },
  }).withTypeProvider<ZodTypeProvider>()
  app.setValidatorCompiler(validatorCompiler)
  app.setSerializerCompiler(serializerCompiler)
  registerErrorHandler(app)
  // First of the hooks after the body, so a shed request costs as little as it can.
  registerLoadShedding(app, { maxInFlight: deps.config.httpMaxInFlight, page: OVERLOADED_PAGE })
  // Before any route, so every one (plugins' included) gets them.
  registerInputHygiene(app)
  registerSecurityHeaders(app, deps.config)
  // JSON in and out (SPEC §1): any other body is a 415.
  app.removeContentTypeParser('text/plain')
  await app.register(cookie)
  await registerOpenapi(app)
  registerGuards(app, { scopes: SCOPES })
  app.get('/openapi.json', { schema: { hide: true }, config: { guard: 'public' } }, async () =>
    openapiDocument(app, deps.config.baseUrl),
  )

  const fullDeps: Deps = { ...deps, log: app.log }
  registerIdempotency(app, fullDeps)
  for (const register of routesFor(deps.config.role)) await register(app, fullDeps)
  return app
}
