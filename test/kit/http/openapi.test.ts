// /openapi.json is a machine-checkable contract: valid for an independent validator, every
// operation named, summarised, tagged and secured as its guard says, its errors documented;
// /docs renders it without a script or another host.
import { Validator } from '@seriousme/openapi-schema-validator'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { contractOf } from '../../setup/contract.ts'
import { engine, startTestService, type TestService } from '../../setup/service.ts'

interface Operation {
  operationId?: string
  summary?: string
  tags?: string[]
  security?: Record<string, string[]>[]
  parameters?: { in: string }[]
  requestBody?: unknown
  responses: Record<string, { content?: Record<string, { schema: { $ref?: string } }> }>
  'x-guard'?: unknown
}

let svc: TestService
let doc: {
  servers: { url: string }[]
  paths: Record<string, Record<string, Operation>>
  components: { schemas: Record<string, unknown> }
}
let operations: (readonly [string, Operation])[]

beforeAll(async () => {
  svc = await startTestService()
  doc = (await svc.api('GET', '/openapi.json')).body
  operations = Object.entries(doc.paths).flatMap(([path, ops]) =>
    Object.entries(ops).map(([method, op]) => [`${method.toUpperCase()} ${path}`, op] as const),
  )
})
afterAll(() => svc?.stop())

const sessionOnly = (guard: unknown) =>
  guard === 'session' || (guard as { account?: string }).account === 'session'

describe(`the OpenAPI document (${engine})`, () => {
  it('is valid for an independent OpenAPI validator', async () => {
    const result = await new Validator().validate(structuredClone(doc))
    expect(result.errors ?? []).toEqual([])
    expect(result.valid).toBe(true)
  })

  it('names the server BASE_URL points at', () => {
    expect(doc.servers).toEqual([{ url: svc.url }])
  })

  it('gives every operation a unique camelCase operationId, a summary and one tag', () => {
    const ids = operations.map(([, op]) => op.operationId)
    expect(new Set(ids).size).toBe(ids.length)
    for (const [name, op] of operations) {
      expect(op.operationId, name).toMatch(/^[a-z][a-zA-Z0-9]+$/)
      expect(op.summary, name).toMatch(/\S/)
      expect(op.tags, name).toHaveLength(1)
    }
  })

  it("documents each operation's security as its guard says, and its error responses", () => {
    for (const [name, op] of operations) {
      const guard = op['x-guard']
      const codes = Object.keys(op.responses)
      if (guard === 'public') {
        expect(op.security, name).toEqual([])
      } else {
        const expected = sessionOnly(guard) ? [{ session: [] }] : [{ apiKey: [] }, { session: [] }]
        expect(op.security, name).toEqual(expected)
        expect(codes, name).toContain('401')
      }
      if (op.parameters?.some((p) => p.in === 'path')) expect(codes, name).toContain('404')
      if (op.requestBody) expect(codes, name).toEqual(expect.arrayContaining(['400', '415']))
      // Client errors share the error schemas (a 5xx may have its own, like /health's 503).
      for (const code of codes.filter((c) => c.startsWith('4'))) {
        const schema = op.responses[code]?.content?.['application/json']?.schema
        expect(schema?.$ref, `${name} ${code}`).toMatch(/^#\/components\/schemas\/(Payout)?Error$/)
      }
    }
  })

  it('lists null in every nullable enum (OpenAPI 3.0 checks enum first)', () => {
    const offenders: string[] = []
    const walk = (node: unknown, at: string) => {
      if (!node || typeof node !== 'object') return
      const schema = node as { nullable?: boolean; enum?: unknown[] }
      if (schema.nullable && schema.enum && !schema.enum.includes(null)) offenders.push(at)
      for (const [key, child] of Object.entries(node)) walk(child, `${at}/${key}`)
    }
    walk(doc.paths, '')
    expect(offenders).toEqual([])
  })
})

describe('the contract check of the test client', () => {
  const contract = contractOf({
    paths: {
      '/things/{id}': {
        get: {
          responses: {
            200: {
              content: {
                'application/json': {
                  schema: {
                    type: 'object',
                    properties: { kind: { type: 'string', enum: ['a', null], nullable: true } },
                    required: ['kind'],
                  },
                },
              },
            },
            404: {
              content: { 'application/json': { schema: { $ref: '#/components/schemas/E' } } },
            },
          },
        },
      },
    },
    components: {
      schemas: { E: { type: 'object', properties: { error: { type: 'string' } } } },
    },
  })

  it('passes documented answers, fails on a wrong body or an undocumented status', () => {
    expect(() => contract.check('GET', '/things/1', 200, { kind: null }, true)).not.toThrow()
    expect(() => contract.check('GET', '/things/1?x=1', 404, { error: 'x' }, true)).not.toThrow()
    expect(() => contract.check('GET', '/things/1', 200, { kind: 'b' }, true)).toThrow(
      'GET /things/{id} 200 breaks its documented schema',
    )
    expect(() => contract.check('GET', '/things/1', 404, { error: 1 }, true)).toThrow()
    expect(() => contract.check('GET', '/things/1', 500, { error: 'x' }, true)).toThrow(
      'GET /things/{id} answered 500, which /openapi.json does not document',
    )
    expect(() => contract.check('GET', '/other', 500, {}, true)).not.toThrow()
  })
})

describe(`/docs (${engine})`, () => {
  it('renders every operation from the document, with no script and nothing from another host', async () => {
    const res = await fetch(`${svc.url}/docs`)
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toContain('text/html')
    const page = await res.text()
    expect(page).not.toMatch(/<script/i)
    expect(page).not.toMatch(/(src|href)="(https?:)?\/\//i)
    expect(page).not.toMatch(/url\(|@import/i)
    for (const [name, op] of operations) {
      expect(page, name).toContain(`id="${op.operationId}"`)
    }
    expect(page).toContain('an API key with <code>read:orders</code> or a session')
  })
})
