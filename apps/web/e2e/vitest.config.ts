import { defineConfig } from 'vitest/config';

// Browser tests: real server, real Chromium. Files run one after another: one browser at a
// time fits 2 cores, and a test that revokes sessions cannot disturb another file.
// Files are named *.e2e.ts so the web app's unit test run never picks them up.
export default defineConfig({
  test: {
    name: 'e2e',
    root: import.meta.dirname,
    environment: 'node',
    // The test server and commands hash passwords at argon2's floor (decision 088); production refuses it.
    env: { PASSWORD_HASH_COST: 'test-only-minimum' },
    include: ['**/*.e2e.ts'],
    globalSetup: ['harness/global-setup.ts'],
    fileParallelism: false,
    // One worker for all the files, so they share its Chromium (test-support/e2e/browser.ts) and the harness
    // is loaded once; each test still gets a new browser context (docs/decisions/060).
    isolate: false,
    testTimeout: 60_000,
    // expect.poll waits for what a page does (a balance redrawn, a row counted) as long as a
    // locator does (10 s, the contexts' default), not vitest's 1 s, which a busy machine passes.
    expect: { poll: { timeout: 10_000, interval: 100 } },
    hookTimeout: 120_000, // the global setup may build the web app
  },
});
