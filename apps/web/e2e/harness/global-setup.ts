/** One portal server for the whole browser test run; its URL goes to the tests by inject(). */
import type { TestProject } from 'vitest/node';
import { ensureWebBuild, startPortalServer } from './server.ts';

export default async function setup(project: TestProject) {
  ensureWebBuild();
  const server = await startPortalServer();
  project.provide('baseUrl', server.baseUrl);
  project.provide('databaseUrl', server.databaseUrl);
  return () => server.stop();
}
