// Page scripts are served as same-origin files, never inline, so every page's CSP can say
// `script-src 'self'` and an injected <script> runs nowhere (kit/http/security-headers.ts).
// A file's name carries a hash of its content: browsers keep it a year, a new version gets a
// new name. Scripts are registered once, when their page module loads.
//
// A page's browser code is a TypeScript module (web/<page>/browser/main.ts), bundled per page
// by esbuild: from the sources, in memory, when they are there (tests, `npm run dev`); from the
// bundle scripts/build.mjs wrote beside the compiled page (main.js) in production.
import { existsSync, readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { buildSync } from 'esbuild'
import { z } from 'zod'
import { sha256Hex } from '../kit/crypto.ts'
import { NotFound } from '../kit/errors.ts'
import type { RouteModule } from '../routes.ts'

const PREFIX = '/assets/'
const scripts = new Map<string, string>()

function register(name: string, source: string): string {
  const file = `${name}.${sha256Hex(source).slice(0, 16)}.js`
  scripts.set(file, source)
  return `${PREFIX}${file}`
}

/** The same options for the in-memory bundle and for scripts/build.mjs. */
export const BROWSER_BUNDLE = {
  bundle: true,
  minify: true,
  target: 'es2020',
  format: 'iife',
  platform: 'browser',
} as const

/**
 * Bundles a page's browser entry (a URL to its main.ts) and returns the path that serves it.
 * Without the .ts source (the production build), reads the pre-built main.js beside it.
 */
export function browserScript(name: string, entry: URL): string {
  const path = fileURLToPath(entry)
  if (!existsSync(path)) return register(name, readFileSync(path.replace(/\.ts$/, '.js'), 'utf8'))
  const out = buildSync({ ...BROWSER_BUNDLE, entryPoints: [path], write: false, logLevel: 'error' })
  return register(name, out.outputFiles[0]!.text)
}

export const assetRoutes: RouteModule = (app) => {
  app.get(
    `${PREFIX}:file`,
    // Cheap, and the pages already served need them: never shed under load.
    { config: { critical: true }, schema: { hide: true, params: z.object({ file: z.string() }) } },
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
