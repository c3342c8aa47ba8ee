import helmet from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';

/** Security headers on every response; the policy allows no inline script at all. */
export async function registerSecurityHeaders(app: FastifyInstance): Promise<void> {
  await app.register(helmet, {
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
  });
}
