/** One server for the console's browser tests: the portal's, with the console's origin on its port. */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import type { TestProject } from 'vitest/node';
import { ensureWebBuild, ROOT, startPortalServer } from '../../../../test-support/e2e/server.ts';
import { rewardsCli } from '../../../../test-support/e2e/operator.ts';

function ensureConsoleBuild(): void {
  if (existsSync(join(ROOT, 'apps', 'console', 'dist', 'index.html'))) return;
  const result = spawnSync('npm', ['run', 'build', '-w', 'apps/console'], { cwd: ROOT, stdio: 'inherit' });
  if (result.status !== 0) throw new Error(`the console build failed (exit ${result.status})`);
}

export default async function setup(project: TestProject) {
  ensureWebBuild();
  ensureConsoleBuild();
  // console.localhost is this machine to Chromium (RFC 6761), so the console has a host of its own.
  // PASSWORD_HASH_COST: the vitest config's env reaches the test files, not this process (decision 088).
  const server = await startPortalServer((port) => ({
    CONSOLE_ORIGIN: `http://console.localhost:${port}`,
    PASSWORD_HASH_COST: 'test-only-minimum',
  }));
  // Acme's portal address is this server's, once for the whole run and before any story: the
  // console's launch-as links point there (support.e2e.ts). No story changes it (decision 071).
  try {
    await rewardsCli(server.databaseUrl, ['clients', 'update', '--client', 'acme', '--portal-url', server.baseUrl]);
  } catch (error) {
    await server.stop();
    throw error;
  }
  project.provide('baseUrl', server.baseUrl);
  project.provide('consoleUrl', server.baseUrl.replace('127.0.0.1', 'console.localhost'));
  project.provide('databaseUrl', server.databaseUrl);
  return () => server.stop();
}
