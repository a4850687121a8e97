// /docs: the API reference, rendered on the server from the OpenAPI document — operations by
// tag, who may call each, parameters, body and responses. No script and nothing from another
// host. Developers read it, so it is in English.
import { Fragment, type VNode } from 'preact'
import { openapiDocument } from '../kit/http/openapi.ts'
import type { RouteModule } from '../routes.ts'
import { Layout } from './layout.tsx'
import { render } from './render.tsx'

/** The parts of an OpenAPI 3.0 schema the reference shows. */
interface Schema {
  $ref?: string
  type?: string
  format?: string
  nullable?: boolean
  enum?: unknown[]
  anyOf?: Schema[]
  oneOf?: Schema[]
  items?: Schema
  properties?: Record<string, Schema>
  required?: string[]
  description?: string
}
interface Operation {
  operationId: string
  summary?: string
  description?: string
  tags?: string[]
  parameters?: { name: string; in: string; required?: boolean; schema: Schema }[]
  requestBody?: { content: Record<string, { schema: Schema }> }
  responses: Record<string, { description: string; content?: Record<string, { schema: Schema }> }>
  'x-guard': unknown
}

// Shapes wrap instead of scrolling sideways: a phone reads them whole, and a scrolling <pre>
// would need a tab stop of its own to be read with the keyboard (axe scrollable-region-focusable).
const CSS = `main{max-width:960px}pre{background:#f6f6f8;padding:8px;border-radius:8px;white-space:pre-wrap;overflow-wrap:anywhere;
font-size:.85rem;margin:.25rem 0 .75rem}.op h3{font-size:1rem;margin:0 0 .25rem}
.op h4{font-size:.9rem;margin:.75rem 0 .25rem}.verb{display:inline-block;min-width:4.5em;font-weight:700}
nav{display:flex;flex-wrap:wrap;gap:.25em .75em}
table{border-collapse:collapse;font-size:.9rem}td,th{text-align:left;padding:2px 8px 2px 0;vertical-align:top}`

export const docsPages: RouteModule = (app, deps) => {
  let rendered: string | undefined
  app.get(
    '/docs',
    { schema: { hide: true }, config: { guard: 'public' } },
    async (_request, reply) => {
      // The document is fixed once the app is up: render it on first request only.
      rendered ??= reference(openapiDocument(app, deps.config.baseUrl) as unknown as ApiDocument)
      return reply.type('text/html').send(rendered)
    },
  )
}

interface ApiDocument {
  info: { title: string; description?: string }
  servers: { url: string }[]
  paths: Record<string, Record<string, Operation>>
}

function reference(doc: ApiDocument): string {
  const byTag = new Map<string, VNode[]>()
  for (const [path, operations] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(operations)) {
      const tag = op.tags?.[0] ?? 'other'
      const item = <OperationCard key={op.operationId} method={method} path={path} op={op} />
      byTag.set(tag, [...(byTag.get(tag) ?? []), item])
    }
  }
  const tags = [...byTag.keys()]
  return render(
    <Layout title="API reference" css={CSS}>
      <div lang="en">
        <h1>{doc.info.title}</h1>
        <p>{doc.info.description}</p>
        <p>
          Base URL: <code>{doc.servers[0]?.url}</code>. JSON in and out; money in BRL with at most
          two decimals; errors are <code>{'{ error, details? }'}</code> (payout and profile
          endpoints: <code>{'{ success: false, error }'}</code>). API keys go in{' '}
          <code>Authorization: Bearer</code>; a session cookie works too, and its writes send{' '}
          <code>x-csrf-token</code>. Every POST takes an optional <code>Idempotency-Key</code>.
          Machine-readable: <a href="/openapi.json">/openapi.json</a>.
        </p>
        <nav aria-label="Tags">
          {tags.map((tag) => (
            <a key={tag} href={`#tag-${tag}`}>
              {tag}
            </a>
          ))}
        </nav>
        {tags.map((tag) => (
          <section key={tag} aria-labelledby={`tag-${tag}`}>
            <h2 id={`tag-${tag}`}>{tag}</h2>
            {byTag.get(tag)}
          </section>
        ))}
      </div>
    </Layout>,
  )
}

function OperationCard(props: { method: string; path: string; op: Operation }): VNode {
  const { op } = props
  const params = op.parameters ?? []
  const body = op.requestBody && Object.values(op.requestBody.content)[0]?.schema
  return (
    <article class="card op" id={op.operationId}>
      <h3>
        <span class="verb">{props.method.toUpperCase()}</span> <code>{props.path}</code>
      </h3>
      <p>
        <strong>{op.summary}</strong> <span class="muted">{`(${op.operationId})`}</span>
      </p>
      {op.description ? (
        <p>
          <Prose text={op.description} />
        </p>
      ) : null}
      <p>
        Who: <Prose text={who(op['x-guard'])} />
      </p>
      {params.length ? (
        <>
          <h4>Parameters</h4>
          <table>
            {params.map((p) => (
              <tr key={`${p.in}:${p.name}`}>
                <td>
                  <code>{p.name}</code>
                </td>
                <td>{`${p.in}${p.required ? ', required' : ''}`}</td>
                <td>
                  <code>{shape(p.schema)}</code>
                </td>
              </tr>
            ))}
          </table>
        </>
      ) : null}
      {body ? (
        <>
          <h4>Body</h4>
          <pre>{shape(body)}</pre>
        </>
      ) : null}
      <h4>Responses</h4>
      {Object.entries(op.responses).map(([status, response]) => {
        const schema = response.content && Object.values(response.content)[0]?.schema
        const named = schema?.$ref !== undefined
        return (
          <Fragment key={status}>
            <p>
              <code>{status}</code> <Prose text={response.description} />
              {named ? (
                <>
                  {' — '}
                  <code>{shape(schema)}</code>
                </>
              ) : null}
            </p>
            {schema && !named ? <pre>{shape(schema)}</pre> : null}
          </Fragment>
        )
      })}
    </article>
  )
}

/** Text with `code` spans, escaped. */
function Prose(props: { text: string }): VNode {
  return <>{props.text.split('`').map((part, i) => (i % 2 ? <code key={i}>{part}</code> : part))}</>
}

/** The route's guard, as the document carries it (`x-guard`), in words. */
function who(guard: unknown): string {
  if (guard === 'public') return 'anyone, no credentials'
  if (guard === 'user') return 'any API key, or a session'
  if (guard === 'session') return 'a session only (no API key)'
  if (guard === 'admin') return 'the platform admin (session or API key)'
  const g = guard as { scope?: string; account?: string; from?: string }
  const where = g.from
    ? `the account \`${g.from.split('.')[1]}\` names`
    : "the key's account; a session's is the one `x-account-id` names, else its first"
  if (g.account === 'session') return `a session only, acting in ${where}`
  if (g.account) return `an API key with \`${g.account}\` or a session, acting in ${where}`
  return `an API key with \`${g.scope}\`, or a session`
}

/** A schema in a compact TypeScript-like notation, with descriptions as comments. */
function shape(schema: Schema, indent = ''): string {
  if (schema.$ref) return String(schema.$ref).split('/').pop() ?? ''
  const nullable = schema.nullable && !schema.enum?.includes(null) ? ' | null' : ''
  if (schema.enum) return schema.enum.map((v) => JSON.stringify(v)).join(' | ')
  const union = schema.anyOf ?? schema.oneOf
  if (union) return union.map((s) => shape(s, indent)).join(' | ') + nullable
  if (schema.type === 'array') return `${shape(schema.items ?? {}, indent)}[]${nullable}`
  if (schema.type === 'object' && schema.properties) {
    const inner = `${indent}  `
    const required = new Set<string>(schema.required ?? [])
    const lines = Object.entries(schema.properties).map(
      ([name, prop]) =>
        `${inner}${name}${required.has(name) ? '' : '?'}: ${shape(prop, inner)}${prop.description ? `  // ${prop.description}` : ''}`,
    )
    return `{\n${lines.join('\n')}\n${indent}}${nullable}`
  }
  const format = schema.format ? ` (${schema.format})` : ''
  return `${schema.type ?? 'any'}${format}${nullable}`
}
