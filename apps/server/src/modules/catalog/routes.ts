import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { CLIENT_HEADER, CatalogUrlParams, CatalogUrlReply, SessionHeaders } from '@rewards/contract';
import type { ModuleDeps } from '../../http/module-deps.ts';
import { sessionOf } from '../sessions/session-guard.ts';
import { catalogUrl, originOf } from './service.ts';
import { signingKeyFor } from './signing-key.ts';

/** GET user/catalog-url/{type} (issue 5, section 3). */
export function catalogRoutes(app: FastifyInstance, deps: ModuleDeps): void {
  const typed = app.withTypeProvider<ZodTypeProvider>();
  const signingKey = signingKeyFor(deps.config);
  typed.get(
    // apiPaths.catalogUrl would encode the parameter's colon.
    '/user/catalog-url/:type',
    {
      preHandler: deps.requireSession,
      schema: {
        summary: 'A signed punch-out link to one of the catalogs (merchandise, experiences, travel)',
        tags: ['Catalogs'],
        security: [{ session: [] }],
        headers: SessionHeaders,
        params: CatalogUrlParams,
        response: { 200: CatalogUrlReply },
      },
    },
    async (request) => ({
      catalogUrl: await catalogUrl(deps.db, signingKey, sessionOf(request), request.params.type, originOf(request.headers[CLIENT_HEADER])),
    }),
  );
}
