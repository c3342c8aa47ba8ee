import { globSync, readFileSync } from 'node:fs';
import { defineConfig } from 'vitest/config';

const include = ['src/**/*.test.ts', 'test/**/*.test.ts'];
// A file that replaces a module (vi.mock) needs a module graph of its own; every other file shares its
// worker's, so the app's few hundred modules load once per worker instead of once per file (docs/decisions/060).
const mocking = include
  .flatMap((pattern) => globSync(pattern, { cwd: import.meta.dirname }))
  .filter((file) => /\bvi\.(do)?[mM]ock\(/.test(readFileSync(`${import.meta.dirname}/${file}`, 'utf8')));

// Password hashes at argon2's floor, through the setting a production start refuses (decision 088): the
// few tests of hashing itself ask for OWASP's cost. Spawned servers and commands inherit it; the setup
// file applies it in the workers, as a start does.
const common = {
  root: import.meta.dirname,
  environment: 'node',
  testTimeout: 20_000,
  hookTimeout: 60_000,
  env: { PASSWORD_HASH_COST: 'test-only-minimum' },
  setupFiles: ['test/password-hash-cost.ts'] as string[],
} as const;

// API tests. Each test file gets its own database (see test/databases.ts), so files may
// run in parallel; 2 workers match the 2-core machines we test on. The global setup (one
// PostgreSQL, the template databases) is the root's, run once for both projects.
export default defineConfig({
  test: {
    ...common,
    globalSetup: ['test/postgres-global-setup.ts'],
    maxWorkers: 2,
    projects: [
      { test: { ...common, name: 'api', include, exclude: mocking, isolate: false } },
      { test: { ...common, name: 'api-isolated', include: mocking.length > 0 ? mocking : ['no-such-file'] } },
    ],
  },
});
