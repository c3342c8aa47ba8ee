/** One portal server for the whole browser test run; its URL goes to the tests by inject(). */
import type { TestProject } from 'vitest/node';
import { ensureWebBuild, startPortalServer } from '../../../../test-support/e2e/server.ts';

export default async function setup(project: TestProject) {
  ensureWebBuild();
  // The vitest config's env reaches the test files, not this process: the server is told here (decision 088).
  const server = await startPortalServer({ PASSWORD_HASH_COST: 'test-only-minimum' });
  project.provide('baseUrl', server.baseUrl);
  project.provide('databaseUrl', server.databaseUrl);
  return () => server.stop();
}
