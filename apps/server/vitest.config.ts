import { defineConfig } from 'vitest/config';

// API tests. Each test file gets its own database (see test/databases.ts), so files may
// run in parallel; 2 workers match the 2-core machines we test on.
export default defineConfig({
  test: {
    root: import.meta.dirname,
    environment: 'node',
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    globalSetup: ['test/postgres-global-setup.ts'],
    maxWorkers: 2,
    testTimeout: 20_000,
    hookTimeout: 60_000,
  },
});
