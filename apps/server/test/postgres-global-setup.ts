/**
 * Starts one throwaway PostgreSQL server for the whole API test run (when DIALECTS asks for
 * postgres) and hands its admin URL to the test files, which make a database each, copied from
 * a template migrated here once per engine (test/template-databases.ts).
 */
import type { TestProject } from 'vitest/node';
import { startThrowawayPostgres } from '../../../scripts/lib/postgres.ts';
import { createPostgresTemplate, createSqliteTemplate, type Template } from './template-databases.ts';

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
  const sqlite: Template | undefined = dialects.includes('sqlite') ? await createSqliteTemplate() : undefined;
  project.provide('sqliteTemplate', sqlite?.name ?? '');
  if (!dialects.includes('postgres')) {
    project.provide('testDatabaseUrl', '');
    project.provide('postgresTemplate', '');
    return () => sqlite?.drop();
  }
  const pg = await startThrowawayPostgres();
  const postgres = await createPostgresTemplate(pg.url);
  project.provide('testDatabaseUrl', pg.url);
  project.provide('postgresTemplate', postgres.name);
  return async () => {
    await sqlite?.drop();
    await postgres.drop(); // a TEST_DATABASE_URL server is not thrown away
    await pg.stop();
  };
}
