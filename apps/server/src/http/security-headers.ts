import helmet from '@fastify/helmet';
import Fastify, { type FastifyInstance } from 'fastify';

const helmetOptions = {
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

/**
 * The headers helmet sets for documents, asked once. @fastify/helmet rebuilds its whole middleware (parsing
 * the CSP again) on every request, which cost more than our route handlers (decision 014); the
 * headers never vary, so they are computed at start-up and copied onto each reply.
 */
async function helmetHeaders(): Promise<Record<string, string>> {
  const probe = Fastify();
  await probe.register(helmet, helmetOptions);
  probe.get('/', async () => '');
  const reply = await probe.inject({ method: 'GET', url: '/' });
  await probe.close();
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(reply.headers)) {
    if (typeof value !== 'string') continue;
    if (['content-type', 'content-length', 'date', 'connection', 'keep-alive'].includes(name)) continue;
    headers[name] = value;
  }
  return headers;
}

/**
 * What an API reply needs (docs/decisions/036): OWASP's REST Security Cheat Sheet names, for every
 * API response, a Content-Security-Policy with frame-ancestors 'none', Strict-Transport-Security,
 * X-Content-Type-Options: nosniff and X-Frame-Options: DENY (with Cache-Control: no-store and the
 * Content-Type, which the API sets itself). The rest of helmet's list — cross-origin opener
 * policy, origin agent cluster, DNS prefetch, download options, cross-domain policies, XSS
 * auditor — acts only on a document a browser renders, and the API renders none: its replies
 * are JSON and redirects. Two are kept for what they still do on JSON: the resource policy stops
 * other sites reading a reply through a no-cors load, and no-referrer covers the sign-on
 * navigations (/api/v1.0/sso/…) whose addresses carry a code until they redirect. The policy
 * allows nothing at all, which is stricter than the page's for a reply opened on its own.
 */
const API_SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
  'cross-origin-resource-policy': 'same-origin',
  'referrer-policy': 'no-referrer',
  'strict-transport-security': 'max-age=15552000; includeSubDomains',
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
};

/** Whether a request's reply is the API's (JSON or a redirect) rather than a document or a file. */
function isApiAddress(url: string): boolean {
  return url.startsWith('/api/');
}

/**
 * Security headers on every response: helmet's for the pages and files a browser renders (the
 * policy allows no inline script at all), API_SECURITY_HEADERS for the API's replies, which are
 * a fifth of the bytes and half the lines — the client data and bundles spent a tenth of their
 * CPU, on both ends, writing and parsing the other seven (decision 036).
 *
 * Added when a reply is sent through Fastify (onSend), not when the request comes in (onRequest):
 * replies written from ready bytes (http/ready-reply.ts: GET user, client data, bundles) carry
 * them in their prebuilt header list and never reach onSend, so setting the headers into
 * Fastify's reply on every one of those requests was work thrown away (docs/decisions/035).
 * Every reply sent the ordinary way — a route's, an error's, a 404's — passes onSend. A header a
 * route set itself (the logo's own Content-Security-Policy) is kept, as it was when these were
 * set first. The same hook closes connections while the server drains (app.ts), so an ordinary
 * reply pays one root hook for both.
 */
export async function registerSecurityHeaders(app: FastifyInstance, isDraining: () => boolean): Promise<void> {
  const documentHeaders = await helmetHeaders();
  if (!documentHeaders['content-security-policy']) throw new Error('helmet set no Content-Security-Policy');
  // For API replies written in one go from ready bytes (ready-reply.ts).
  app.decorate('apiSecurityHeaderList', Object.entries(API_SECURITY_HEADERS).flat());
  const forDocuments = { names: Object.keys(documentHeaders), values: Object.values(documentHeaders) };
  const forApi = { names: Object.keys(API_SECURITY_HEADERS), values: Object.values(API_SECURITY_HEADERS) };
  app.addHook('onSend', (request, reply, payload, done) => {
    const { names, values } = isApiAddress(request.url) ? forApi : forDocuments;
    for (let i = 0; i < names.length; i++) if (!reply.hasHeader(names[i]!)) reply.header(names[i]!, values[i]);
    // Responses finished while draining close their connection; a keep-alive socket would
    // otherwise hold the process open until its timeout.
    if (isDraining()) reply.header('connection', 'close');
    done(null, payload);
  });
}
