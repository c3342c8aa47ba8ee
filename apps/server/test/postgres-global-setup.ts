/**
 * Starts one throwaway PostgreSQL server for the whole API test run (when DIALECTS asks for
 * postgres) and hands its admin URL to the test files, which make a database each.
 */
import type { TestProject } from 'vitest/node';
import { startThrowawayPostgres } from '../../../scripts/lib/postgres.ts';

export type Dialect = 'sqlite' | 'postgres';

export function parseDialects(value = process.env.DIALECTS ?? 'sqlite,postgres'): Dialect[] {
  const dialects = value
    .split(',')
    .map((d) => d.trim())
    .filter(Boolean);
  for (const d of dialects) {
    if (d !== 'sqlite' && d !== 'postgres') throw new Error(`DIALECTS: unknown dialect "${d}" (use sqlite,postgres)`);
  }
  return dialects as Dialect[];
}

export default async function setup(project: TestProject) {
  const dialects = parseDialects();
  project.provide('dialects', dialects);
  if (!dialects.includes('postgres')) {
    project.provide('testDatabaseUrl', '');
    return;
  }
  const pg = await startThrowawayPostgres();
  project.provide('testDatabaseUrl', pg.url);
  return () => pg.stop();
}
