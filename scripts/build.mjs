// `npm run build` (run by `prestart`): src/ → dist/ as plain JavaScript, one file per source
// file, so production runs no TypeScript compiler. Each file is transpiled alone (esbuild,
// which tsx already brings); relative imports stay imports, `.ts` → `.js`; packages stay
// packages. Files the code reads at run time next to itself (migrations' .sql, the checkout
// page's client.js) are copied to the same place under dist/. Types are checked by
// `npm run typecheck`, not here.
import { cpSync, readdirSync, rmSync } from 'node:fs'
import { build } from 'esbuild'

// `node scripts/build.mjs [outdir]`: dist unless told (the build test writes elsewhere).
const outdir = process.argv[2] ?? 'dist'

const files = readdirSync('src', { recursive: true, withFileTypes: true })
  .filter((entry) => entry.isFile())
  .map((entry) => `${entry.parentPath}/${entry.name}`)
const entryPoints = files.filter((f) => f.endsWith('.ts'))
const assets = files.filter((f) => !f.endsWith('.ts'))

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
            : { path: args.path.replace(/\.ts$/, '.js'), external: true },
        )
      },
    },
  ],
})
for (const file of assets) cpSync(file, file.replace(/^src\//, `${outdir}/`))
