// The OpenAPI document as a contract the tests enforce: every JSON answer the test client gets
// from a documented operation must be a status that operation documents, with a body matching
// the schema documented for it. Read from the service's own /openapi.json.
import { Ajv, type ValidateFunction } from 'ajv'
import addFormatsModule from 'ajv-formats'

type Json = Record<string, unknown>
interface Operation {
  method: string
  template: string
  pattern: RegExp
  responses: Record<string, { content?: Record<string, { schema: Json }> }>
}

// ajv-formats is CommonJS: its default export arrives wrapped under Node's ESM loader.
const addFormats = ((addFormatsModule as { default?: unknown }).default ??
  addFormatsModule) as typeof addFormatsModule.default
// `nullable` is an OpenAPI 3.0 keyword ajv knows; the document's other extras are not checks.
const ajv = addFormats(new Ajv({ strict: false, allErrors: true }))
/** Compiled once per process, by schema text. */
const compiled = new Map<string, ValidateFunction>()

export interface Contract {
  /** Throws when the answer breaks the documented contract. */
  check(method: string, url: string, status: number, body: unknown, json: boolean): void
}

export function contractOf(doc: {
  paths: Record<string, Record<string, Operation['responses'] | Json>>
  components?: { schemas?: Record<string, Json> }
}): Contract {
  const schemas = doc.components?.schemas ?? {}
  const operations: Operation[] = []
  for (const [template, methods] of Object.entries(doc.paths)) {
    const pattern = new RegExp(`^${template.replace(/\{[^}]+\}/g, '[^/]+')}$`)
    for (const [method, op] of Object.entries(methods)) {
      const { responses } = op as { responses: Operation['responses'] }
      operations.push({ method: method.toUpperCase(), template, pattern, responses })
    }
  }
  // A literal segment wins over a parameter (`/a/b` before `/a/{id}`).
  operations.sort((a, b) => params(a.template) - params(b.template))

  return {
    check(method, url, status, body, json) {
      const path = url.split('?')[0] ?? ''
      const op = operations.find((o) => o.method === method && o.pattern.test(path))
      if (!op) return
      const name = `${method} ${op.template}`
      const documented = op.responses[String(status)]
      if (!documented) {
        throw new Error(`${name} answered ${status}, which /openapi.json does not document`)
      }
      const schema = documented.content?.['application/json']?.schema
      if (!schema || !json) return
      const validate = validator(inline(schema, schemas))
      if (!validate(body)) {
        const why = ajv.errorsText(validate.errors, { dataVar: 'body' })
        throw new Error(`${name} ${status} breaks its documented schema: ${why}`)
      }
    },
  }
}

const params = (template: string) => template.split('{').length

function validator(schema: Json): ValidateFunction {
  const text = JSON.stringify(schema)
  let validate = compiled.get(text)
  if (!validate) {
    validate = ajv.compile(schema)
    compiled.set(text, validate)
  }
  return validate
}

/** The schema with every `#/components/schemas/…` reference replaced by its target. */
function inline(node: unknown, schemas: Record<string, Json>): Json {
  if (Array.isArray(node)) return node.map((item) => inline(item, schemas)) as never
  if (!node || typeof node !== 'object') return node as never
  const ref = (node as Json).$ref
  if (typeof ref === 'string') {
    const target = schemas[ref.replace('#/components/schemas/', '')]
    if (!target) throw new Error(`/openapi.json points at a missing schema: ${ref}`)
    return inline(target, schemas)
  }
  return Object.fromEntries(
    Object.entries(node as Json).map(([key, value]) => [key, inline(value, schemas)]),
  )
}
