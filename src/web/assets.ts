// Page scripts are served as same-origin files, never inline, so every page's CSP can say
// `script-src 'self'` and an injected <script> runs nowhere (kit/http/security-headers.ts).
// A file's name carries a hash of its content: browsers keep it a year, a new version gets a
// new name. Scripts are module-level constants, registered once when their page module loads.
import { z } from 'zod'
import { sha256Hex } from '../kit/crypto.ts'
import { NotFound } from '../kit/errors.ts'
import type { RouteModule } from '../routes.ts'
import { html, type Safe } from './html.ts'

const PREFIX = '/assets/'
const scripts = new Map<string, string>()

/** Registers a page's script and returns the tag that loads it. */
export function scriptFile(name: string, source: string): Safe {
  const file = `${name}.${sha256Hex(source).slice(0, 16)}.js`
  scripts.set(file, source)
  return html`<script src="${PREFIX}${file}"></script>`
}

export const assetRoutes: RouteModule = (app) => {
  app.get(
    `${PREFIX}:file`,
    { schema: { hide: true, params: z.object({ file: z.string() }) } },
    async (request, reply) => {
      const source = scripts.get(request.params.file)
      if (source === undefined) throw new NotFound()
      return reply
        .header('cache-control', 'public, max-age=31536000, immutable')
        .type('text/javascript; charset=utf-8')
        .send(source)
    },
  )
}
