import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
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
