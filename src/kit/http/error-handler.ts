import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod'
import { AppError, TooManyRequests } from '../errors.ts'

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Payout and profile endpoints answer `{ success: false, error }` (SPEC §1). */
    payoutErrors?: boolean
  }
}

const FASTIFY_STATUS: Record<string, [number, string]> = {
  FST_ERR_CTP_BODY_TOO_LARGE: [413, 'Request body is too large'],
  FST_ERR_CTP_INVALID_MEDIA_TYPE: [415, 'Content-Type must be application/json'],
  FST_ERR_CTP_EMPTY_JSON_BODY: [400, 'Body must be a JSON object'],
  FST_ERR_CTP_INVALID_JSON_BODY: [400, 'Body is not valid JSON'],
}

/** The one place errors become responses: `{ error, details? }`, never a stack trace. */
export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof AppError) {
      if (error instanceof TooManyRequests) reply.header('retry-after', error.retryAfterSeconds)
      return send(request, reply, error.status, error.message, error.details)
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const details = error.validation.map((issue) => ({
        path: issue.instancePath.replace(/^\//, '').replace(/\//g, '.'),
        message: issue.message,
      }))
      return send(request, reply, 400, 'Validation failed', details)
    }
    const known = FASTIFY_STATUS[error.code]
    if (known) return send(request, reply, known[0], known[1])
    if (error instanceof SyntaxError || error.statusCode === 400) {
      return send(request, reply, 400, 'Body is not valid JSON')
    }
    request.log.error({ err: error }, 'unhandled error')
    return send(request, reply, 500, 'Internal server error')
  })
  app.setNotFoundHandler((request, reply) => send(request, reply, 404, 'Not found'))
}

function send(
  request: FastifyRequest,
  reply: FastifyReply,
  status: number,
  message: string,
  details?: unknown[],
) {
  const body: Record<string, unknown> = request.routeOptions.config?.payoutErrors
    ? { success: false, error: message }
    : { error: message }
  if (details?.length) body.details = details
  return reply.code(status).type('application/json').send(body)
}
