// Load shedding (launch day): past HTTP_MAX_IN_FLIGHT requests under way in this process, a new
// request is answered 503 at once, with Retry-After (a page to a browser), instead of queueing
// behind the others until its buyer gives up and the work done for it is wasted (Stripe's "load
// shedder"). Routes that finish a sale or keep money safe are never shed (`config.critical`: the
// gateways' callbacks, Asaas' withdrawal validation, the sandbox, /health, page scripts); they
// still count.
//
// A request counts once its body has arrived (preValidation): a client trickling a body in holds
// no slot. It stops counting when its response ends or its client goes away, whichever is first;
// a handler whose client left still finishes its work (a charge under way is never cut).
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { AppError } from '../errors.ts'

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Never shed under load (kit/http/load-shedding.ts): the work of finishing a sale. */
    critical?: boolean
  }
}

/** Long enough for the requests under way to drain; short enough that a buyer keeps waiting. */
export const RETRY_AFTER_SECONDS = 2

export const OVERLOADED_MESSAGE =
  'Muitas pessoas comprando agora. Tente de novo em alguns segundos.'

/** `page`: the HTML a browser asking for a page gets instead of it. */
export function registerLoadShedding(
  app: FastifyInstance,
  opts: { maxInFlight: number; page: string },
): void {
  let inFlight = 0
  app.addHook('preValidation', (request, reply, done) => {
    if (inFlight >= opts.maxInFlight && !request.routeOptions.config?.critical)
      return shed(request, reply, done, opts.page)
    // A socket already gone never answers, so would never give its slot back.
    if (reply.raw.socket?.destroyed) return done()
    inFlight++
    reply.raw.once('close', () => {
      inFlight--
    })
    done()
  })
}

function shed(
  request: FastifyRequest,
  reply: FastifyReply,
  done: (error?: Error) => void,
  page: string,
) {
  reply.header('retry-after', RETRY_AFTER_SECONDS)
  // A browser navigating asks for HTML; a script's fetch and the API's clients do not.
  const wantsPage = request.method === 'GET' && request.headers.accept?.includes('text/html')
  if (!wantsPage) return done(new AppError(503, OVERLOADED_MESSAGE, 'overloaded'))
  // The page loads itself again (the Refresh header, as a meta refresh would), a little later
  // for some than for others, so that the visitors turned away together do not all come back
  // together.
  const refreshAfter = RETRY_AFTER_SECONDS + Math.floor(Math.random() * 4)
  reply.code(503).header('refresh', refreshAfter).type('text/html; charset=utf-8').send(page)
}
