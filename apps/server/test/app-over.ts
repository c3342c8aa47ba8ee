import type { FastifyInstance, HTTPMethods, LightMyRequestResponse } from 'fastify';
import { API_BASE, CLIENT_HEADER, SESSION_HEADER, type UserData } from '@rewards/contract';
import { buildApp } from '../src/app.ts';
import { loadConfig, type Config } from '../src/config.ts';
import { DEMO_PASSWORD } from '../src/db/seed/demo.ts';
import type { TestDatabase } from './databases.ts';

export const DEMO_ORIGIN = 'http://localhost:3000';
export const OTHER_ORIGIN = 'https://rewards.globex.example';

/**
 * The real app over a database a test already has (a fresh one in createTestApp, or one the CLI
 * has just written to, so that what an operator did can be checked through the participant's
 * API). Closing it leaves the database to its owner.
 */
export interface AppOver {
  app: FastifyInstance;
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

/** `env` sets configuration; by default no read cache, so a changed row shows at once. */
export async function appOver(database: TestDatabase, env: Record<string, string> = {}): Promise<AppOver> {
  const config = { ...loadConfig({ LOG_LEVEL: 'silent', CLIENT_CACHE_SECONDS: '0', ...env }), webDist: undefined };
  const app = await buildApp({ config, db: database.db });
  await app.ready();
  const api: AppOver['api'] = (method, path, options = {}) =>
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
    config,
    api,
    async login(username, password = DEMO_PASSWORD, origin = DEMO_ORIGIN) {
      const reply = await api('POST', '/login', { body: { username, password }, origin });
      if (reply.statusCode !== 200) throw new Error(`login ${username}: ${reply.statusCode} ${reply.body}`);
      return reply.json<UserData>();
    },
    close: () => app.close(),
  };
}
