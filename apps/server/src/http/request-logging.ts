import type { FastifyBaseLogger, FastifyRequest } from 'fastify';
import proxyAddr from '@fastify/proxy-addr';
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

/** The header a proxy names its request by; taken only from a trusted proxy (decision 079). */
export const REQUEST_ID_HEADER = 'x-request-id';
/** A proxy's request id as a log line may carry it: short, and nothing that could forge a line or hide text. */
const PROXY_REQUEST_ID = /^[A-Za-z0-9._:@+=/-]{1,128}$/;

/**
 * Request ids: the trusted proxy's X-Request-Id when it sends one (so the proxy's log and ours
 * name a request alike; TRUST_PROXY says whom to believe, decision 041), else our own:
 * UUID-shaped (logs and tests read them as such), a random part per app and a counter, instead of
 * a fresh random UUID for every request (docs/decisions/056). Unique within the process; the
 * random part tells processes apart. Without a trusted proxy the header is never looked at.
 */
export function requestIdGenerator(trustProxy: false | number | string[] = false): (request: IncomingMessage) => string {
  const prefix = randomUUID().slice(0, 24);
  let counter = 0;
  const own = () => prefix + (++counter).toString(16).padStart(12, '0');
  const trusted = peerTrust(trustProxy);
  if (!trusted) return own;
  return (request) => {
    const given = request.headers[REQUEST_ID_HEADER];
    return typeof given === 'string' && PROXY_REQUEST_ID.test(given) && trusted(request.socket.remoteAddress) ? given : own();
  };
}

/** Whether the peer that connected is a proxy TRUST_PROXY names, as Fastify's trustProxy judges the nearest hop. */
function peerTrust(trust: false | number | string[]): ((address: string | undefined) => boolean) | undefined {
  if (trust === false || trust === 0) return undefined;
  // A hop count believes whoever connects directly (hop 0 < the count), as app.ts's trustProxy does.
  if (typeof trust === 'number') return () => true;
  const compiled = proxyAddr.compile(trust);
  return (address) => address !== undefined && compiled(address, 0);
}

/**
 * The request as a log line shows it (Fastify's own fields, and the route's template), the query
 * string left out: links carry their tokens there (a reset link's passwordGuid, single sign-on's
 * code and state).
 */
export function requestLogFields(request: FastifyRequest): Record<string, unknown> {
  const query = request.url.indexOf('?');
  return {
    method: request.method,
    url: query === -1 ? request.url : request.url.slice(0, query),
    route: request.routeOptions?.url,
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  };
}

/** Fastify's logger is pino's, which answers isLevelEnabled. */
type Logger = FastifyBaseLogger & { isLevelEnabled(level: string): boolean };

/**
 * Whether a line at debug would be written (pino answers it; any other logger is assumed to write): lets a caller skip building a line's object (docs/decisions/056).
 */
export function writesDebug(log: FastifyBaseLogger): boolean {
  const { isLevelEnabled } = log as Partial<Logger>;
  return typeof isLevelEnabled === 'function' ? isLevelEnabled.call(log, 'debug') : true;
}

/** The same for trace: the request's first line, before its body (decision 079). */
export function writesTrace(log: FastifyBaseLogger): boolean {
  const { isLevelEnabled } = log as Partial<Logger>;
  return typeof isLevelEnabled === 'function' ? isLevelEnabled.call(log, 'trace') : true;
}
