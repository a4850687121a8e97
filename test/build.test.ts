// The production build (`npm run build`, run by `npm start`): the compiled service starts on an
// empty data directory — migrations' .sql found beside the compiled code — and serves the demo
// checkout page, whose script was bundled for the browser by the build.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { freePort } from './setup/free-port.ts'

// Inside the project, so the compiled files find the packages in node_modules.
const outdir = join('.build-test', String(process.pid))
const dataDir = mkdtempSync(join(tmpdir(), 'vitrine-build-'))
let child: ChildProcess | undefined
afterAll(() => {
  child?.kill('SIGTERM')
  rmSync(outdir, { recursive: true, force: true })
  rmSync(dataDir, { recursive: true, force: true })
})

describe('the production build', () => {
  it('starts from compiled JavaScript and serves the demo checkout', {
    timeout: 90_000,
  }, async () => {
    execFileSync(process.execPath, ['scripts/build.mjs', outdir])
    const port = String(await freePort())
    child = spawn(process.execPath, [join(outdir, 'main.js')], {
      env: { PATH: process.env.PATH, HOME: process.env.HOME, PORT: port, DATA_DIR: dataDir },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let output = ''
    child.stdout!.on('data', (chunk) => {
      output += chunk
    })
    child.stderr!.on('data', (chunk) => {
      output += chunk
    })
    const checkoutUrl = await new Promise<string>((resolve, reject) => {
      child!.stdout!.on('data', () => {
        const url = /Demo checkout\s+(\S+)/.exec(output)?.[1]
        if (url) resolve(url)
      })
      child!.once('exit', (code) => reject(new Error(`exited with ${code}:\n${output}`)))
    })
    const page = await fetch(checkoutUrl)
    expect(page.status).toBe(200)
    const script = /src="(\/assets\/checkout\.[^"]+\.js)"/.exec(await page.text())?.[1]
    expect(script).toBeDefined()
    const file = await fetch(`http://localhost:${port}${script}`)
    expect(file.status).toBe(200)
    // The bundle scripts/build.mjs made from checkout/browser/main.ts, not a TypeScript source.
    const source = await file.text()
    expect(source).toContain('checkout-config')
    expect(source).not.toMatch(/\bimport\b|\binterface\b/)
  })
})
