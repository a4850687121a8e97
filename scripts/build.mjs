// `npm run build` (run by `prestart`): src/ → dist/ as plain JavaScript, one file per source
// file, so production runs no TypeScript compiler. Each file is transpiled alone (esbuild,
// which tsx already brings); relative imports stay imports, `.ts`/`.tsx` → `.js`; packages stay
// packages. Pages' browser code (src/web/**/browser/) is not run by Node: each page's
// browser/main.ts is bundled for the browser into browser/main.js, which web/assets.ts serves.
// Files the code reads at run time next to itself (migrations' .sql) are copied to the same
// place under dist/. Types are checked by `npm run typecheck`, not here.
import { cpSync, readdirSync, rmSync } from 'node:fs'
import { build } from 'esbuild'

// `node scripts/build.mjs [outdir]`: dist unless told (the build test writes elsewhere).
const outdir = process.argv[2] ?? 'dist'

const files = readdirSync('src', { recursive: true, withFileTypes: true })
  .filter((entry) => entry.isFile())
  .map((entry) => `${entry.parentPath}/${entry.name}`)
const isSource = (f) => /\.tsx?$/.test(f)
const isBrowser = (f) => /\/browser\//.test(f)
const entryPoints = files.filter((f) => isSource(f) && !isBrowser(f))
const browserEntries = files.filter((f) => isBrowser(f) && f.endsWith('/browser/main.ts'))
const assets = files.filter((f) => !isSource(f))

rmSync(outdir, { recursive: true, force: true })
await build({
  entryPoints,
  outdir,
  outbase: 'src',
  platform: 'node',
  format: 'esm',
  target: 'node20',
  bundle: true,
  packages: 'external',
  sourcemap: 'linked',
  logLevel: 'warning',
  plugins: [
    {
      name: 'keep-relative-imports',
      setup(b) {
        b.onResolve({ filter: /^\.\.?\// }, (args) =>
          args.kind === 'entry-point'
            ? undefined
            : { path: args.path.replace(/\.tsx?$/, '.js'), external: true },
        )
      },
    },
  ],
})
// The same options as BROWSER_BUNDLE in web/assets.ts.
await build({
  entryPoints: browserEntries,
  outdir,
  outbase: 'src',
  bundle: true,
  minify: true,
  target: 'es2020',
  format: 'iife',
  platform: 'browser',
  logLevel: 'warning',
})
for (const file of assets) cpSync(file, file.replace(/^src\//, `${outdir}/`))
