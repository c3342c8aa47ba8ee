import type { FastifyInstance, FastifyRequest } from 'fastify';
import { API_BASE, API_DOCUMENT_PATH, CLIENT_HEADER, ssoPaths } from '@rewards/contract';
import type { Db } from '../../db/database.ts';
import { errors } from '../../http/api-error.ts';
import { findClientIdByHostname } from './store.ts';
import { LRUCache } from 'lru-cache';

declare module 'fastify' {
  interface FastifyRequest {
    /** The client (program) this request belongs to; every query is scoped by it. */
    clientId: string;
  }
}

/** scheme://host[:port], an optional trailing slash, nothing else: no credentials, path, query or fragment. */
const ORIGIN_SHAPE = /^https?:\/\/[^\s/?#@\\]+\/?$/i;

/**
 * The site origin of spec section 7's client-id header, reduced to its hostname; undefined when
 * the header is not an http(s) origin, which the caller gets as unknownClient (docs/decisions/041).
 * Scheme and host are case-insensitive (RFC 3986); the URL parser checks the host and the port.
 */
function hostnameOf(origin: string): string | undefined {
  if (!ORIGIN_SHAPE.test(origin)) return undefined;
  try {
    return new URL(origin).hostname.toLowerCase() || undefined;
  } catch {
    return undefined;
  }
}

/**
 * A caller sends the same origin on every call: the parse is remembered (a pure function of the
 * text, so nothing to invalidate). Bounded, because the header is anyone's to choose; "no
 * hostname" is remembered as ''.
 */
const hostnames = new LRUCache<string, string>({ max: 1_000, memoMethod: (origin) => hostnameOf(origin) ?? '' });

function cachedHostnameOf(origin: string): string | undefined {
  const hostname = hostnames.memo(origin);
  return hostname === '' ? undefined : hostname;
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
export function registerClientContext(app: FastifyInstance, db: Db, consoleHostname: string): void {
  app.decorateRequest('clientId', '');
  app.addHook('onRequest', async (request: FastifyRequest) => {
    const url = request.url;
    // The admin API names its client in the key or the body (docs/decisions/025), the program
    // API's key is of one client (decision 085); the console's staff belong to no client
    // (docs/decisions/046).
    if (!url.startsWith('/api/') || url.startsWith('/api/admin/') || url.startsWith('/api/console/') || url.startsWith('/api/program/'))
      return;
    // The API document is the same for every client: integrators read it before they have one.
    // (The route is only asked for where it could be that one: building routeOptions costs.)
    if ((url.startsWith(API_DOCUMENT_PATH) || url.includes('%')) && request.routeOptions.url === API_DOCUMENT_PATH) return;
    const header = isNavigation(url) ? `http://${request.host}` : request.headers[CLIENT_HEADER];
    const origin = typeof header === 'string' ? header : undefined;
    const hostname = origin && origin.length <= 2048 ? cachedHostnameOf(origin) : undefined;
    // The console's origin is never a client's, whatever a row may say (docs/decisions/046).
    if (!hostname || hostname === consoleHostname) throw errors.unknownClient();
    const clientId = await findClientIdByHostname(db, hostname);
    if (!clientId) throw errors.unknownClient();
    request.clientId = clientId;
  });
}
