// Every string a request brings in, checked in one place (SPEC §15). PostgreSQL text and jsonb
// cannot hold U+0000, and UTF-8 cannot carry a lone surrogate (the drivers would silently store
// U+FFFD instead), so neither may reach a query. One hook, before any route's own validation:
// - the JSON API answers 400 `Validation failed`, the details naming each field;
// - a page drops the parameter (a path parameter becomes empty) and renders as if it were
//   absent: its links come from anyone, and a buyer never gets a JSON error for one;
// - a cookie is dropped everywhere: nobody typed it, and a mangled session is simply no session.
// Headers need nothing: Node's HTTP parser refuses a NUL in a header with 400 before we see it.
import type { FastifyInstance, FastifyRequest } from 'fastify'
import { BadRequest } from '../errors.ts'

// biome-ignore lint/suspicious/noControlCharactersInRegex: U+0000 is what this looks for
const UNSTORABLE = /[\u0000\p{Cs}]/u
const MESSAGE = 'Contém um caractere inválido'
/** Enough to point at the problem; a body full of them need not be echoed back whole. */
const MAX_REPORTED = 20

const isApi = (url: string) => url.startsWith('/api/') || url.startsWith('/sandbox/')

/**
 * Paths (`plans.0.name`) of the strings in a parsed JSON value, keys included, that PostgreSQL
 * cannot store. Iterative: a 1 MiB body can nest deeper than the call stack.
 */
export function unstorablePaths(value: unknown): string[] {
  const found: string[] = []
  const queue: [unknown, string][] = [[value, '']]
  for (let i = 0; i < queue.length && found.length < MAX_REPORTED; i++) {
    const [item, path] = queue[i]!
    if (typeof item === 'string') {
      if (UNSTORABLE.test(item)) found.push(path)
    } else if (isJsonContainer(item)) {
      for (const [key, child] of Object.entries(item)) {
        const childPath = path ? `${path}.${key}` : key
        if (UNSTORABLE.test(key)) found.push(childPath)
        else queue.push([child, childPath])
      }
    }
  }
  return found
}

/** Parsed objects and arrays; not the raw Buffer a signed callback keeps. */
const isJsonContainer = (value: unknown): value is object =>
  typeof value === 'object' && value !== null && !ArrayBuffer.isView(value)

export function registerInputHygiene(app: FastifyInstance): void {
  app.addHook('preValidation', async (request: FastifyRequest) => {
    const cookies = request.cookies ?? {}
    for (const [name, value] of Object.entries(cookies)) {
      if (value !== undefined && UNSTORABLE.test(value)) delete cookies[name]
    }
    const parts = [request.body, request.query, request.params]
    if (isApi(request.url)) {
      const paths = parts.flatMap(unstorablePaths).slice(0, MAX_REPORTED)
      if (paths.length)
        throw new BadRequest(
          'Validation failed',
          paths.map((path) => ({ path, message: MESSAGE })),
        )
      return
    }
    for (const fields of parts) {
      if (!isJsonContainer(fields)) continue
      const record = fields as Record<string, unknown>
      for (const [name, value] of Object.entries(record)) {
        if (!UNSTORABLE.test(name) && unstorablePaths(value).length === 0) continue
        // A path segment cannot be absent: it becomes empty, which no page takes for a real one.
        if (fields === request.params) record[name] = ''
        else delete record[name]
      }
    }
  })
}
