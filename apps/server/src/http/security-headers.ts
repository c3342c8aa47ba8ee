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
 * The headers helmet sets, asked once. @fastify/helmet rebuilds its whole middleware (parsing
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
 * Security headers on every response; the policy allows no inline script at all.
 *
 * Added when a reply is sent through Fastify (onSend), not when the request comes in (onRequest):
 * replies written from ready bytes (http/ready-reply.ts: GET user, client data, bundles) carry
 * them in their prebuilt header list and never reach onSend, so setting the twelve headers into
 * Fastify's reply on every one of those requests was work thrown away (docs/decisions/035).
 * Every reply sent the ordinary way — a route's, an error's, a 404's — passes onSend. A header a
 * route set itself (the logo's own Content-Security-Policy) is kept, as it was when these were
 * set first. The same hook closes connections while the server drains (app.ts), so an ordinary
 * reply pays one root hook for both.
 */
export async function registerSecurityHeaders(app: FastifyInstance, isDraining: () => boolean): Promise<void> {
  const headers = await helmetHeaders();
  if (!headers['content-security-policy']) throw new Error('helmet set no Content-Security-Policy');
  // For replies written in one go from ready bytes (ready-reply.ts).
  app.decorate('securityHeaderList', Object.entries(headers).flat());
  const names = Object.keys(headers);
  const values = Object.values(headers);
  app.addHook('onSend', (_request, reply, payload, done) => {
    for (let i = 0; i < names.length; i++) if (!reply.hasHeader(names[i]!)) reply.header(names[i]!, values[i]);
    // Responses finished while draining close their connection; a keep-alive socket would
    // otherwise hold the process open until its timeout.
    if (isDraining()) reply.header('connection', 'close');
    done(null, payload);
  });
}
