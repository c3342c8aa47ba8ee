import type { FastifyInstance, HTTPMethods, LightMyRequestResponse } from 'fastify';
import { API_BASE, CLIENT_HEADER, SESSION_HEADER, type UserData } from '@rewards/contract';
import { buildApp } from '../src/app.ts';
import { loadConfig, type Config } from '../src/config.ts';
import { seedDemo, DEMO_PASSWORD } from '../src/db/seed/demo.ts';
import { seedOtherClient } from './other-client.ts';
import { createTestDatabase, type Dialect, type TestDatabase } from './databases.ts';

export const DEMO_ORIGIN = 'http://localhost:3000';
export const OTHER_ORIGIN = 'https://rewards.globex.example';
export { DEMO_PASSWORD };

export interface TestApp {
  app: FastifyInstance;
  database: TestDatabase;
  config: Config;
  /** A call to /api/v1.0 as the portal makes it: JSON, the site origin in client-id, the session if given. */
  api(method: HTTPMethods, path: string, options?: { body?: unknown; rawBody?: string; session?: string; origin?: string; headers?: Record<string, string> }): Promise<LightMyRequestResponse>;
  login(username: string, password?: string, origin?: string): Promise<UserData>;
  close(): Promise<void>;
}

/** The real app over a fresh database of one engine, with the demo program and a second client. */
export async function createTestApp(dialect: Dialect, env: Record<string, string> = {}): Promise<TestApp> {
  const database = await createTestDatabase(dialect);
  await seedDemo(database.db);
  await seedOtherClient(database.db);
  // Tests change configuration rows directly and look at once: no read cache unless asked for.
  const config = { ...loadConfig({ LOG_LEVEL: 'silent', CLIENT_CACHE_SECONDS: '0', ...env }), webDist: undefined };
  const app = await buildApp({ config, db: database.db });
  await app.ready();

  const api: TestApp['api'] = (method, path, options = {}) =>
    app.inject({
      method,
      url: `${API_BASE}${path}`,
      headers: {
        'content-type': 'application/json',
        [CLIENT_HEADER]: options.origin ?? DEMO_ORIGIN,
        ...(options.session ? { [SESSION_HEADER]: options.session } : {}),
        ...options.headers,
      },
      ...(options.body === undefined ? {} : { payload: JSON.stringify(options.body) }),
      // Bytes as a careless or hostile caller sends them, not made by JSON.stringify.
      ...(options.rawBody === undefined ? {} : { payload: options.rawBody }),
    });

  return {
    app,
    database,
    config,
    api,
    async login(username, password = DEMO_PASSWORD, origin = DEMO_ORIGIN) {
      const reply = await api('POST', '/login', { body: { username, password }, origin });
      if (reply.statusCode !== 200) throw new Error(`login ${username}: ${reply.statusCode} ${reply.body}`);
      return reply.json<UserData>();
    },
    async close() {
      await app.close();
      await database.drop();
    },
  };
}
