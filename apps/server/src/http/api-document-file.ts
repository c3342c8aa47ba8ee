import { fileURLToPath } from 'node:url';
import { API_DOCUMENT_PATH } from '@rewards/contract';
import { buildApp } from '../app.ts';
import { loadConfig } from '../config.ts';
import { createDatabase } from '../db/database.ts';

/** The committed copy integrators read without running the portal (docs/decisions/023). */
export const API_DOCUMENT_FILE = fileURLToPath(new URL('../../../../docs/api/openapi.json', import.meta.url));

/**
 * The document as the server serves it, pretty-printed for the committed copy. The app is built
 * over an empty in-memory database: the document depends on the routes' schemas only.
 */
export async function renderApiDocument(): Promise<string> {
  const db = createDatabase({ dialect: 'sqlite', path: ':memory:' });
  const app = await buildApp({ config: { ...loadConfig({ LOG_LEVEL: 'silent' }), webDist: undefined }, db });
  try {
    await app.ready();
    const reply = await app.inject({ method: 'GET', url: API_DOCUMENT_PATH });
    if (reply.statusCode !== 200) throw new Error(`${API_DOCUMENT_PATH} answered ${reply.statusCode}`);
    return `${JSON.stringify(reply.json(), null, 2)}\n`;
  } finally {
    await app.close();
    await db.destroy();
  }
}
