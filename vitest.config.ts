import { readdirSync, readFileSync } from 'node:fs'
import { configDefaults, defineConfig } from 'vitest/config'

/**
 * TEST_BROWSER=journeys: of the files that drive Chromium, only the end-to-end journeys run.
 * CI's run on the embedded database sets it, because its run on PostgreSQL (the production
 * engine) has them all: the browser files are half of a run's time, and the pages' code is
 * the same on both engines, whose differences the other tests cover on each. `npm test`
 * alone runs everything.
 */
const browserFilesLeftOut =
  process.env.TEST_BROWSER === 'journeys'
    ? readdirSync('test/web')
        .filter((file) => file.endsWith('.test.ts') && file !== 'journeys.test.ts')
        .filter((file) => readFileSync(`test/web/${file}`, 'utf8').includes('openBrowser('))
        .map((file) => `test/web/${file}`)
    : []

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    exclude: [...configDefaults.exclude, ...browserFilesLeftOut],
    globalSetup: ['test/setup/global.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Two cores: more parallel files only add contention.
    maxWorkers: 2,
    // A worker runs its files one after another in one process, importing the service once
    // instead of once per file (~1.5 s each, 181 s of a run). Every file starts its own
    // service and database and stops them in afterAll; nothing mocks or patches modules.
    isolate: false,
  },
})
