import type { FastifyInstance } from 'fastify';

/**
 * The portal sends `Content-Type: application/json` on every call (spec section 7), bodiless
 * PUTs included; Fastify's own parser would refuse those. An empty body parses to undefined;
 * anything else goes through Fastify's parser, which guards against prototype poisoning.
 */
export function acceptEmptyJsonBodies(app: FastifyInstance): void {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    if (body === '') return done(null, undefined);
    parseJson(request, body as string, done);
  });
}
