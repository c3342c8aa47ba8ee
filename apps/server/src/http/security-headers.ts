import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import helmet, { type HelmetOptions } from 'helmet';

/**
 * Security headers, set by helmet per route group (docs/decisions/056).
 *
 * API_HEADERS, set at the root, so every reply that is not a page carries them (the APIs,
 * their 404s and refusals, /healthz, the logo): what OWASP's REST Security Cheat Sheet names for
 * every API response — a policy allowing nothing and no framing, HSTS, nosniff, X-Frame-Options
 * DENY — and two that still act on JSON: the resource policy (no other site reads a reply through
 * a no-cors load) and no-referrer (the sign-on navigations carry a code in their address until
 * they redirect). Helmet's other headers act only on a rendered document (decision 056).
 */
export const API_HEADERS: HelmetOptions = {
  contentSecurityPolicy: { useDefaults: false, directives: { defaultSrc: ["'none'"], frameAncestors: ["'none'"] } },
  crossOriginEmbedderPolicy: false,
  crossOriginOpenerPolicy: false,
  crossOriginResourcePolicy: { policy: 'same-origin' },
  originAgentCluster: false,
  referrerPolicy: { policy: 'no-referrer' },
  strictTransportSecurity: { maxAge: 15552000, includeSubDomains: true },
  xDnsPrefetchControl: false,
  xDownloadOptions: false,
  xFrameOptions: { action: 'deny' },
  xPermittedCrossDomainPolicies: false,
  xXssProtection: false,
};

/**
 * PAGE_HEADERS, set in the scopes that serve documents (the web app, the console app, the
 * demo catalog), after the root's: helmet's whole set, with a policy that allows no inline script.
 */
export const PAGE_HEADERS: HelmetOptions = {
  contentSecurityPolicy: {
    useDefaults: false,
    directives: {
      defaultSrc: ["'self'"],
      scriptSrc: ["'self'"],
      styleSrc: ["'self'"],
      imgSrc: ["'self'", 'data:'],
      fontSrc: ["'self'"],
      connectSrc: ["'self'"],
      objectSrc: ["'none'"],
      baseUri: ["'self'"],
      formAction: ["'self'"],
      frameAncestors: ["'none'"],
    },
  },
  // The portal opens external catalogs in new tabs; it never needs to be embedded.
  crossOriginEmbedderPolicy: false,
  strictTransportSecurity: { maxAge: 15552000, includeSubDomains: true },
  // Some of the portal's own addresses carry secrets (a reset guid, an SSO session id) until
  // the app removes them; no request, to us or anyone, may repeat them in a Referer.
  referrerPolicy: { policy: 'no-referrer' },
};

/**
 * Sets these headers on every reply of this scope (and the scopes inside it). They never vary, so
 * helmet's middleware runs once, here, into a list, and a hook copies the list into each reply:
 * @fastify/helmet runs helmet again on every request (parsing the policy each time, ~50 µs of a
 * GET user's ~75), and even a middleware built once, setting node's headers directly, cost
 * ~15 µs more per request than Fastify's own headers (decision 056).
 */
export function securityHeaders(scope: FastifyInstance, options: HelmetOptions): void {
  const headers: Record<string, string> = {};
  // What helmet's middleware touches of a response: it sets headers and removes X-Powered-By.
  const response = { setHeader: (name: string, value: string) => (headers[name.toLowerCase()] = value), removeHeader: () => undefined };
  helmet(options)({} as IncomingMessage, response as unknown as ServerResponse, () => undefined);
  scope.addHook('onRequest', (_request, reply, done) => {
    reply.headers(headers);
    done();
  });
}
