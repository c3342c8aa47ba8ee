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

/** Security headers on every response; the policy allows no inline script at all. */
export async function registerSecurityHeaders(app: FastifyInstance): Promise<void> {
  const headers = await helmetHeaders();
  if (!headers['content-security-policy']) throw new Error('helmet set no Content-Security-Policy');
  // For replies written in one go from ready bytes (ready-reply.ts).
  app.decorate('securityHeaderList', Object.entries(headers).flat());
  app.addHook('onRequest', (_request, reply, done) => {
    reply.headers(headers);
    done();
  });
}
