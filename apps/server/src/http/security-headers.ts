import helmet from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';

/**
 * Security headers, set by @fastify/helmet per route group (docs/decisions/056).
 *
 * API_HEADERS, registered at the root, so every reply that is not a page carries them (the APIs,
 * their 404s and refusals, /healthz, the logo): what OWASP's REST Security Cheat Sheet names for
 * every API response — a policy allowing nothing and no framing, HSTS, nosniff, X-Frame-Options
 * DENY — and two that still act on JSON: the resource policy (no other site reads a reply through
 * a no-cors load) and no-referrer (the sign-on navigations carry a code in their address until
 * they redirect). Helmet's other headers act only on a rendered document (decision 036).
 */
export const API_HEADERS = {
  contentSecurityPolicy: { useDefaults: false, directives: { defaultSrc: ["'none'"], frameAncestors: ["'none'"] } },
  crossOriginEmbedderPolicy: false,
  crossOriginOpenerPolicy: false,
  crossOriginResourcePolicy: { policy: 'same-origin' as const },
  originAgentCluster: false,
  referrerPolicy: { policy: 'no-referrer' as const },
  strictTransportSecurity: { maxAge: 15552000, includeSubDomains: true },
  xDnsPrefetchControl: false,
  xDownloadOptions: false,
  xFrameOptions: { action: 'deny' as const },
  xPermittedCrossDomainPolicies: false,
  xXssProtection: false,
};

/**
 * PAGE_HEADERS, registered in the scopes that serve documents (the web app, the console app, the
 * demo catalog), after the root's: helmet's whole set, with a policy that allows no inline script.
 */
export const PAGE_HEADERS = {
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
  referrerPolicy: { policy: 'no-referrer' as const },
};

/** The page headers in this scope: they replace the root's API headers of the same names and add the rest. */
export async function registerPageHeaders(scope: FastifyInstance): Promise<void> {
  await scope.register(helmet, PAGE_HEADERS);
}
