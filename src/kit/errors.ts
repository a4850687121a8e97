// Typed errors: services throw these; the one Fastify error handler renders them.

export class AppError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly code = 'error',
    readonly details?: unknown[],
  ) {
    super(message)
  }
}

export class BadRequest extends AppError {
  constructor(message: string, details?: unknown[]) {
    super(400, message, 'bad_request', details)
  }
}
export class Unauthorized extends AppError {
  constructor() {
    super(401, 'Unauthorized', 'unauthorized')
  }
}
export class Forbidden extends AppError {
  constructor(message = 'Forbidden') {
    super(403, message, 'forbidden')
  }
}
export class NotFound extends AppError {
  constructor(message = 'Not found') {
    super(404, message, 'not_found')
  }
}
export class Conflict extends AppError {
  constructor(message: string) {
    super(409, message, 'conflict')
  }
}
export class PaymentRequired extends AppError {
  constructor(message: string, details?: unknown[]) {
    super(402, message, 'payment_required', details)
  }
}
/**
 * A failure after which what was asked may have been done (a gateway's answer that never came):
 * running the request again could do it twice, so its answer is kept for the request's
 * Idempotency-Key as any other answer is (kit/http/idempotency.ts), not freed as a 5xx is.
 */
export class UnknownOutcome extends AppError {}
export class TooManyRequests extends AppError {
  constructor(readonly retryAfterSeconds: number) {
    super(429, 'Too many requests', 'rate_limited')
  }
}
