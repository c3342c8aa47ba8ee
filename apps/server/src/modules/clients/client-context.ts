import type { FastifyInstance, FastifyRequest } from 'fastify';
import { API_BASE, API_DOCUMENT_PATH, CLIENT_HEADER, ssoPaths } from '@rewards/contract';
import type { Db } from '../../db/database.ts';
import { errors } from '../../http/api-error.ts';
import { findClientIdByHostname } from './store.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** The client (program) this request belongs to; every query is scoped by it. */
    clientId: string;
  }
}

/** The site origin of spec section 7's client-id header, reduced to its hostname. */
function hostnameOf(origin: string): string | undefined {
  try {
    return new URL(origin).hostname.toLowerCase();
  } catch {
    return undefined;
  }
}

/**
 * Addresses a browser navigates to (single sign-on, decision 024): a navigation sends no client-id
 * header, so the client is the one of the Host, like the HTML page's (decision 003).
 */
const NAVIGATIONS = new Set([ssoPaths.login, ssoPaths.callback, ssoPaths.logout].map((path) => `${API_BASE}${path}`));

function isNavigation(url: string): boolean {
  const query = url.indexOf('?');
  return NAVIGATIONS.has(query === -1 ? url : url.slice(0, query));
}

/**
 * Resolves the tenant of every /api request from the client-id header. The header is the
 * caller's word, which is safe because nothing of a client is reachable without that client's
 * own session or credentials: sessions and usernames are looked up together with the client.
 */
export function registerClientContext(app: FastifyInstance, db: Db): void {
  app.decorateRequest('clientId', '');
  app.addHook('onRequest', async (request: FastifyRequest) => {
    // The admin API names its client in the key or the body (docs/decisions/025).
    if (!request.url.startsWith('/api/') || request.url.startsWith('/api/admin/')) return;
    // The API document is the same for every client: integrators read it before they have one.
    if (request.routeOptions.url === API_DOCUMENT_PATH) return;
    const header = isNavigation(request.url) ? `http://${request.host}` : request.headers[CLIENT_HEADER];
    const origin = typeof header === 'string' ? header : undefined;
    const hostname = origin && origin.length <= 2048 ? hostnameOf(origin) : undefined;
    if (!hostname) throw errors.unknownClient();
    const clientId = await findClientIdByHostname(db, hostname);
    if (!clientId) throw errors.unknownClient();
    request.clientId = clientId;
  });
}
