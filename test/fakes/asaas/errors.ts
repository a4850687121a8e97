// Asaas' error body, `{"errors":[{"code","description"}]}` with an HTTP 4xx
// (https://docs.asaas.com/docs/http-response-codes). Descriptions are in Portuguese, as the API
// answers them.

export interface AsaasProblem {
  code: string
  description: string
}

export class AsaasError extends Error {
  constructor(
    readonly status: number,
    readonly errors: AsaasProblem[],
  ) {
    super(errors.map((e) => `${e.code}: ${e.description}`).join('; '))
  }
}

/** Throws one problem. */
export function fail(status: number, code: string, description: string): never {
  throw new AsaasError(status, [{ code, description }])
}

export function notFound(): never {
  fail(404, 'not_found', 'O recurso solicitado não existe.')
}

/** Collects every field problem of a request, as Asaas answers several at once. */
export class Problems {
  readonly list: AsaasProblem[] = []

  add(code: string, description: string): void {
    this.list.push({ code, description })
  }

  throwIfAny(): void {
    if (this.list.length > 0) throw new AsaasError(400, this.list)
  }
}
