import type { FastifyInstance, HTTPMethods, LightMyRequestResponse } from 'fastify';
import type { UserData } from '@rewards/contract';
import type { Config } from '../src/config.ts';
import { seedDemo, DEMO_PASSWORD } from '../src/db/seed/demo.ts';
import { appOver, DEMO_ORIGIN, OTHER_ORIGIN, type AppOver } from './app-over.ts';
import { seedOtherClient } from './other-client.ts';
import { createTestDatabase, type Dialect, type TestDatabase } from './databases.ts';

export { DEMO_ORIGIN, OTHER_ORIGIN, DEMO_PASSWORD };

export interface TestApp {
  app: FastifyInstance;
  database: TestDatabase;
  config: Config;
  /** A call to /api/v1.0 as the portal makes it: JSON, the site origin in client-id, the session if given. */
  api(
    method: HTTPMethods,
    path: string,
    options?: { body?: unknown; rawBody?: string; session?: string; origin?: string; headers?: Record<string, string> },
  ): Promise<LightMyRequestResponse>;
  login(username: string, password?: string, origin?: string): Promise<UserData>;
  close(): Promise<void>;
}

/** The real app over a fresh database of one engine, with the demo program and a second client. */
export async function createTestApp(dialect: Dialect, env: Record<string, string> = {}): Promise<TestApp> {
  const database = await createTestDatabase(dialect);
  await seedDemo(database.db);
  await seedOtherClient(database.db);
  // Tests change configuration rows directly and look at once: no read cache unless asked for.
  const portal: AppOver = await appOver(database, env);
  return {
    ...portal,
    database,
    async close() {
      await portal.close();
      await database.drop();
    },
  };
}
