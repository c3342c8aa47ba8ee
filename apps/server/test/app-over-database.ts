import type { FastifyInstance, HTTPMethods, LightMyRequestResponse } from 'fastify';
import { API_BASE, CLIENT_HEADER, SESSION_HEADER } from '@rewards/contract';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import type { TestDatabase } from './databases.ts';

export interface AppOverDatabase {
  app: FastifyInstance;
  /** A call to /api/v1.0 from the given origin, as the portal makes it. */
  api(method: HTTPMethods, path: string, options: { origin: string; body?: unknown; session?: string }): Promise<LightMyRequestResponse>;
  close(): Promise<void>;
}

/**
 * A fresh portal over a database a test already filled (for instance through the `rewards`
 * command): what a running server sees after an operator's change. `env` sets configuration,
 * e.g. CLIENT_CACHE_SECONDS (default 0 here: no read cache).
 */
export async function appOverDatabase(database: TestDatabase, env: Record<string, string> = {}): Promise<AppOverDatabase> {
  const config = { ...loadConfig({ LOG_LEVEL: 'silent', CLIENT_CACHE_SECONDS: '0', ...env }), webDist: undefined };
  const app = await buildApp({ config, db: database.db });
  await app.ready();
  return {
    app,
    api: (method, path, options) =>
      app.inject({
        method,
        url: `${API_BASE}${path}`,
        headers: {
          'content-type': 'application/json',
          [CLIENT_HEADER]: options.origin,
          ...(options.session ? { [SESSION_HEADER]: options.session } : {}),
        },
        ...(options.body === undefined ? {} : { payload: JSON.stringify(options.body) }),
      }),
    close: () => app.close(),
  };
}
